// report.html: one self-contained page per run for a person to look at, with no network access
// (inline data, inline CSS and a plain-JavaScript script, no external resource). It shows the
// summary (latency, energy, EDP, utilisations, cost fallbacks, memory fallback actions) and per
// group the schedule of one steady-state iteration (rows per core and link, lanes so that bars
// never overlap, tooltips, a cycle axis, zoom and pan), memory occupancy per core against its
// capacity, the binding contributor of every slot, and the cost table as latency and energy
// heatmaps; for a run of the mapping optimizer, its search (optimizer_report.hpp: every candidate's
// value, the best so far, the automatic mapping's, the latency-energy front for pareto). The
// figures are computed in C++ and embedded as JSON; the script only draws them.
// The same inputs give the same bytes.
#pragma once

#include <string>

#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"
#include "stream/report/optimizer_report.hpp"

namespace stream::report {

/// `summary_json`: the run's summary.json text, shown as the page's summary. `optimizer`: the
/// search that found the run's mapping, when there was one.
[[nodiscard]] std::string report_html(const pipeline::RunResult& result, const hardware::Accelerator& accelerator,
                                      const std::string& summary_json, const OptimizerReport* optimizer = nullptr);

}  // namespace stream::report
