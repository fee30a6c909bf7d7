#include "sweep_row.hpp"

#include <stream/io/bounded_json.hpp>
#include <stream/io/utf8.hpp>

namespace stream::host {

std::optional<RowLine> parse_row_line(const std::string& line) {
  auto row = io::parse_json_bounded<nlohmann::ordered_json>(line);
  if (!row.is_object() || !row.contains("id") || !row["id"].is_string()) return std::nullopt;
  return RowLine{row["id"].get<std::string>(), row.value("point", nlohmann::ordered_json()), io::dump_json(row, -1)};
}

}  // namespace stream::host
