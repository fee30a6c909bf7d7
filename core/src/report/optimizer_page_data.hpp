// The mapping optimizer's figures as report.html draws them (report_page.js, section "Mapping
// optimizer"): every candidate as [index, ranked value or null when it failed, accepted, latency,
// energy], the best-so-far curve, the automatic mapping's ranked value (the plot's reference
// line), the units and, for pareto, the front. The table's figures are the summary's `optimizer`
// block, which the page reads from summary.json.
#pragma once

#include <nlohmann/json.hpp>

#include "stream/report/optimizer_report.hpp"

namespace stream::report::detail {

[[nodiscard]] nlohmann::ordered_json optimizer_page_data(const OptimizerReport& optimizer);

}  // namespace stream::report::detail
