// A pass over the run's groups in order: each group through its attempts (group_run.hpp); a fused
// group that cannot fit cut into one group per layer, whose parts take its place; each solved
// fused group checked against its layers run alone when the spec asks (per_layer_check). The pass
// is what the run's result is folded from (run.cpp), or, under `--layout choose`, the first pass
// the layout choice plans from (layout_pass.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "group_run.hpp"

namespace stream::pipeline {

struct GroupPass {
  std::vector<GroupResult> groups;
  std::int64_t total_latency = 0;
  double total_energy = 0;
  std::size_t reused = 0;  ///< allocations deduplication reused (per-layer checks aside)
  RunTimings timings;      ///< its groups', cut groups' and per-layer checks' clocks
};

/// The jobs in order (their index is set here, as their position among the pass's groups).
[[nodiscard]] GroupPass run_groups(std::deque<GroupJob> jobs, RunContext& ctx);

/// RunSpec::per_layer_check: the latency of g's nodes as one group per layer when lower than g's
/// own, else -1; the layers' runs go to `checks`. Quiet, and off the run's figures.
[[nodiscard]] std::int64_t per_layer_latency(const GroupResult& g, RunContext& ctx, std::vector<SupersededRun>& checks);

}  // namespace stream::pipeline
