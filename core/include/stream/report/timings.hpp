// timings.yaml / timings.json of a run: every wall-clock figure, and nothing else. Clock readings
// differ between two runs of the same inputs, so they live in this one file and every other
// result file is a function of the inputs alone (byte-identical reruns). Per group (keyed
// group_<i> like summary's groups): the group's wall time, the cost-table part of it, the MILP
// solve time and the solve time of each lexicographic objective level of its final allocation,
// and every attempt the memory fallback made (mapping, tiling, cost table, schedule and
// allocation clocks, each MILP solve with its objective and status, whether the allocation was
// reused from an identical group); the fused groups it cut, with their attempts; the run's phases
// (grouping, mapping, tiling, cost table, schedule, allocation, results, layout choice), which
// add up to the run's total wall time. Under `--layout choose`, `layout_passes` lists the group
// runs whose results the run replaced (the first pass's groups when the second pass scheduled
// them again, the conversion groups run to price an option), with their attempts; their clocks
// are in the phases too, and `layout_choice_time_s` is the gathering and pricing of the options
// and the second pass's rewrite. `per_layer_checks` lists the runs of RunSpec::per_layer_check
// (a fused group's layers alone), clocked in the phases too. Seconds, rounded to microseconds. `stream run --inline-timings` repeats the same readings in
// summary.* and optimization_metrics.yaml for readers who want one file.
#pragma once

#include <string>

#include "stream/export.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

[[nodiscard]] std::string timings_yaml(const pipeline::RunResult& result, const pipeline::RunTimings& timings);
/// Seconds rounded to microseconds (the unit of every clock figure the results carry), as a
/// number and as YAML text ("0.091249", no trailing zeros).
[[nodiscard]] double rounded_seconds(double seconds);
[[nodiscard]] std::string seconds_text(double seconds);
[[nodiscard]] STREAM_API std::string timings_json(const pipeline::RunResult& result, const pipeline::RunTimings& timings);

}  // namespace stream::report
