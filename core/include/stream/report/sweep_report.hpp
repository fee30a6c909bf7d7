// A sweep's report.html: one self-contained page (no network; the frame of html_report.hpp) with
// the latency and energy of every point on log scales, the Pareto front (latency, energy, area)
// marked, and the table of all points, sortable by any column. Its data are the rows of
// results.jsonl without their clock reading (`wall_s`), so the same points give the same page.
#pragma once

#include <string>
#include <vector>

#include "stream/export.hpp"

namespace stream::report {

/// `results_jsonl`: results.jsonl's text (one JSON object per line); `pareto_ids`: the `id`s of
/// the rows on the Pareto front (pareto.csv's).
[[nodiscard]] STREAM_API std::string sweep_report_html(const std::string& results_jsonl, const std::vector<std::string>& pareto_ids);

}  // namespace stream::report
