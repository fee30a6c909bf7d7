// summary.yaml / summary.json of a run: total latency (cycles), total energy (pJ), EDP, and per
// group its latency, share of the total, energy, status and, for a solved group, its
// memory-access totals {reads, writes} (docs/memory-accesses.md). No clock readings: the wall
// times are in timings.yaml / timings.json (report/timings.hpp, same group keys), which `timings`
// names, so the summary of the same inputs is byte-identical from run to run.
#pragma once

#include <string>

#include "stream/pipeline/run.hpp"

namespace stream::report {

[[nodiscard]] std::string summary_yaml(const pipeline::RunResult& result);
[[nodiscard]] std::string summary_json(const pipeline::RunResult& result);

}  // namespace stream::report
