// One mapping a group was tried with: the memory fallback may try several (memory_fallback in
// docs/pipeline.md); the last is the group's answer. Values only; its clocks are an
// AttemptClocks (run_timings.hpp).
#pragma once

#include <string>
#include <vector>

#include "stream/mapping/auto_mapping.hpp"

namespace stream::pipeline {

struct Attempt {
  std::string change;  ///< empty for the group's first mapping, else what the fallback changed
  double fill_fraction = mapping::kDefaultFillFraction;
  std::vector<int> excluded_cores;
  bool tile_cap_reached = false;  ///< the capacity tiler stopped at the tile cap with a core still over
  bool reused = false;            ///< the allocation was an earlier identical group's (deduplication)
  bool capacity_proved = false;   ///< infeasible by the capacity bound, without a solve
  std::string status;             ///< the allocation's status ("" when costs only)
};

}  // namespace stream::pipeline
