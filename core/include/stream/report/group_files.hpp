// The per-group YAML reports (spec §4.11): core_cost_lut.yaml (the cost table),
// slot_latency_breakdown.yaml (totals, resource slack, tensor reuse, per-slot contributors) and
// optimization_metrics.yaml (status, objective per lexicographic level, model size; filled for
// CBC; its solve times are in the run's timings.yaml); memory_accesses.yaml (per-core
// reads/writes of the transfers, spec §4.10, docs/memory-accesses.md).
#pragma once

#include <string>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

[[nodiscard]] STREAM_API std::string core_cost_lut_yaml(const pipeline::GroupResult& group);
[[nodiscard]] STREAM_API std::string slot_latency_breakdown_yaml(const pipeline::GroupResult& group,
                                                                 const hardware::Accelerator& accelerator);
/// `inline_timings`, when given (the group's clocks): also the solve time (total and per objective
/// level, as in timings.*). `model_file`: where the group's infeasible model is read
/// (infeasible_model_path); named in the file when the allocation carries one.
[[nodiscard]] STREAM_API std::string optimization_metrics_yaml(const pipeline::GroupResult& group, const std::string& solver,
                                                               const pipeline::GroupClocks* inline_timings = nullptr,
                                                               const std::string& model_file = "");
[[nodiscard]] STREAM_API std::string memory_accesses_yaml(const pipeline::GroupResult& group);

}  // namespace stream::report
