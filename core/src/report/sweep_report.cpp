#include "stream/report/sweep_report.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "html_page.hpp"
#include "stream/io/utf8.hpp"

namespace stream::report {

namespace detail {
extern const char kSweepPageScript[];
}

// The page's data, {"rows": [...], "pareto": [...]}, written row by row: a sweep of 10^4 points
// would otherwise hold every row parsed at once, several times the size of the page.
std::string sweep_report_html(const std::string& results_jsonl, const std::vector<std::string>& pareto_ids) {
  std::string data = "{\"rows\":[";
  std::istringstream lines(results_jsonl);
  bool first = true;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    auto row = nlohmann::ordered_json::parse(line);
    row.erase("wall_s");
    data += (first ? "" : ",") + io::dump_json(row, -1);
    first = false;
  }
  data += "],\"pareto\":" + io::dump_json(nlohmann::ordered_json(pareto_ids), -1) + "}";
  return detail::html_page("Stream sweep report", "sweep-data", data, detail::kSweepPageScript);
}

}  // namespace stream::report
