#include "stream/report/html_report.hpp"

#include <nlohmann/json.hpp>

#include "html_page.hpp"
#include "optimizer_page_data.hpp"
#include "report_data.hpp"
#include "workload_graph.hpp"

namespace stream::report {

namespace detail {
extern const char kReportPageScript[];
}

std::string report_html(const pipeline::RunResult& r, const hardware::Accelerator& acc, const std::string& summary_json,
                        const OptimizerReport* optimizer) {
  nlohmann::ordered_json data;
  data["summary"] = nlohmann::ordered_json::parse(summary_json);
  data["groups"] = nlohmann::ordered_json::array();
  for (const auto& g : r.groups) data["groups"].push_back(detail::group_report_data(g, acc));
  data["workload_graph"] = detail::workload_graph_data(r);
  if (optimizer) data["optimizer"] = detail::optimizer_page_data(*optimizer);
  return detail::html_page("Stream report", "report-data", data, detail::kReportPageScript);
}

}  // namespace stream::report
