// One fusion group through its steps: its first mapping (the mapping file's or the automatic
// one), then per attempt tile -> cost table -> steady-state schedule -> allocation, the memory
// fallback proposing the next mapping while memory capacity is what fails, and at the end the
// group's energy and memory accesses (or, out of options, the full diagnosis of its last
// attempt). A function of its job and the run's context; it returns the group's values and its
// clocks apart.
#pragma once

#include <cstddef>
#include <string>

#include "run_context.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::pipeline {

struct GroupJob {
  Workload workload;
  int index = 0;
  int split_from = -1;   ///< the automatic group a memory-fallback cut made it from (-1: none)
  std::string converts;  ///< a conversion group: the tensor it converts (automatic mapping)
};

struct GroupOutcome {
  GroupResult result;
  GroupClocks clocks;
  std::size_t reused = 0;  ///< allocations deduplication reused, over its attempts
};

/// The group through its attempts, not finished (finish_group) so that a caller can cut it first.
[[nodiscard]] GroupOutcome attempt_group(GroupJob job, RunContext& ctx);

/// The group's answer: explained in full when out of options, else its energy and accesses.
void finish_group(GroupOutcome& g, RunContext& ctx, const std::string& tag);

/// attempt_group then finish_group.
[[nodiscard]] GroupOutcome run_group(GroupJob job, RunContext& ctx, const std::string& tag);

}  // namespace stream::pipeline
