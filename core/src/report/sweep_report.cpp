#include "stream/report/sweep_report.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "html_page.hpp"

namespace stream::report {

namespace detail {
extern const char kSweepPageScript[];
}

std::string sweep_report_html(const std::string& results_jsonl, const std::vector<std::string>& pareto_ids) {
  nlohmann::ordered_json data;
  data["rows"] = nlohmann::ordered_json::array();
  std::istringstream lines(results_jsonl);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    auto row = nlohmann::ordered_json::parse(line);
    row.erase("wall_s");
    data["rows"].push_back(std::move(row));
  }
  data["pareto"] = pareto_ids;
  return detail::html_page("Stream sweep report", "sweep-data", data, detail::kSweepPageScript);
}

}  // namespace stream::report
