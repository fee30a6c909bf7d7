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

namespace stream::report {

/// `inline_timings`, when given (the run's clocks): also carry the wall times (total and per
/// group, as in timings.*); the file then differs from run to run. `metrics` (pipeline/metrics.hpp), when given, adds the
/// utilisations, MIP gap and degenerate flag per group and in total, and the memory use per core
/// (pipeline/memory_use.hpp).
[[nodiscard]] STREAM_API std::string summary_yaml(const pipeline::RunResult& result, const pipeline::RunTimings* inline_timings = nullptr,
                                                  const pipeline::RunMetrics* metrics = nullptr);
[[nodiscard]] STREAM_API std::string summary_json(const pipeline::RunResult& result, const pipeline::RunTimings* inline_timings = nullptr,
                                                  const pipeline::RunMetrics* metrics = nullptr);

}  // namespace stream::report
