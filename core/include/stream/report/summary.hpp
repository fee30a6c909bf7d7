// summary.yaml / summary.json of a run: total latency (cycles), total energy (pJ), EDP, and per
// group its latency, share of the total, energy, status, MAC utilisations and, for a solved group, its
// memory-access totals {reads, writes} (docs/memory-accesses.md). No clock readings: the wall
// times are in timings.yaml / timings.json (report/timings.hpp, same group keys), which `timings`
// names, so the summary of the same inputs is byte-identical from run to run.
#pragma once

#include <string>

#include "stream/export.hpp"
#include "stream/pipeline/metrics.hpp"
#include "stream/pipeline/run.hpp"
#include "stream/report/optimizer_report.hpp"

namespace stream::report {

/// `inline_timings`, when given (the run's clocks): also carry the wall times (total and per
/// group, as in timings.*); the file then differs from run to run. `metrics` (pipeline/metrics.hpp), when given, adds the
/// utilisations, MIP gap and degenerate flag per group and in total, and the memory use per core
/// (pipeline/memory_use.hpp). `optimizer`, when given (the run of `--mapping optimize`'s best),
/// adds an `optimizer` block: objective, the automatic mapping's and the best's objective values,
/// their ratio, the budget (`evaluations`) and what was spent of it, whether it was cut short or was
/// still improving, the best's evaluation (null: the automatic mapping stayed best) and the group
/// runs; the same figures as optimize.yaml's.
[[nodiscard]] STREAM_API std::string summary_yaml(const pipeline::RunResult& result, const pipeline::RunTimings* inline_timings = nullptr,
                                                  const pipeline::RunMetrics* metrics = nullptr,
                                                  const OptimizerReport* optimizer = nullptr);
[[nodiscard]] STREAM_API std::string summary_json(const pipeline::RunResult& result, const pipeline::RunTimings* inline_timings = nullptr,
                                                  const pipeline::RunMetrics* metrics = nullptr,
                                                  const OptimizerReport* optimizer = nullptr);

}  // namespace stream::report
