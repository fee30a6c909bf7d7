// The memory fallback, a strategy around a group's steps (beyond the reference, which stops with
// InfeasibleAllocationError; docs/pipeline.md). When memory capacity alone makes an automatically
// mapped group infeasible it proposes the group's next mapping: tiled finer (the capacity tiler's
// fill fraction halves, twice, while the tiler meets its fill), then mapped again without the
// specialised cores whose memory alone blocks the allocation (their work moves to the generic
// cores), then, for a group that cannot be cut whose tiler stopped at its tile cap, tiled by tile
// cost past the cap (capacity_tiler.hpp). A mapping already tried for the group is never proposed
// again. Out of mappings, a fused group is cut into one group per layer, each of which goes
// through the fallback on its own.
#pragma once

#include <memory>

#include <optional>
#include <string>
#include <vector>

#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::pipeline {

/// A mapping the fallback proposes, with the state it was made under and a line saying what changed.
struct Remap {
  mapping::GroupMapping mapping;
  std::string change;
  double fill_fraction = mapping::kDefaultFillFraction;
  std::vector<int> excluded_cores;
  bool tile_cap_reached = false;
  double mapping_time_s = 0;  ///< every mapping generated to find it, repeats included
};

/// Whether the allocation failed on memory capacity (what the fallback acts on).
[[nodiscard]] bool failed_on_memory(const allocate::Allocation& allocation);

/// The fallback of one group: remembers the mappings tried for it.
class MemoryFallback {
 public:
  MemoryFallback(const hardware::Accelerator& accelerator, Compat compat, std::shared_ptr<const mapping::NodeChoices> choices)
      : acc_(accelerator), compat_(compat), choices_(std::move(choices)) {}

  /// The next mapping after `g`'s current one failed on memory, or nothing when no option is left.
  /// `tile_cap_reached`: the capacity tiler stopped at its tile cap, so a smaller fill cannot tile finer.
  [[nodiscard]] std::optional<Remap> next(const GroupResult& g, bool tile_cap_reached);

 private:
  bool by_tile_cost(Remap& r, const GroupResult& g, bool tile_cap_reached);

  const hardware::Accelerator& acc_;
  Compat compat_;  ///< whose tiler remaps the group (the run's --compat)
  std::shared_ptr<const mapping::NodeChoices> choices_;  ///< RunSpec::node_choices: kept by every remap
  std::vector<mapping::GroupMapping> tried_;
  bool by_tile_cost_ = false;  ///< the capacity tiler searches by tile cost past its cap (from then on)
};

/// The fused group cut into one group per layer, or nothing when it is one layer already.
[[nodiscard]] std::optional<std::vector<Workload>> per_layer_groups(const Workload& group);

}  // namespace stream::pipeline
