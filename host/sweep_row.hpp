// One line of a sweep's results.jsonl read back (a resume, `stream sweep merge`): the file is
// written by a process that may have been killed mid-line, or edited by hand, so any line may be
// cut short, not JSON, nested 100,000 deep or without an id. Such a line holds no row.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace stream::host {

/// A row as read back: its identity, its `point` (for ordering shards) and its text, the line
/// written again (io::dump_json(row, -1)).
struct RowLine {
  std::string id;
  nlohmann::ordered_json point;
  std::string text;
};

/// The row one results.jsonl line holds; none for a line that is no JSON object with a string
/// `id` (a line a killed run cut short, one nested deeper than io::kMaxJsonDepth).
[[nodiscard]] std::optional<RowLine> parse_row_line(const std::string& line);

}  // namespace stream::host
