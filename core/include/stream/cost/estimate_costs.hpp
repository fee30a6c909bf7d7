// The (compute node, core) cost table of a tiled group (spec §4.4).
//
// For every compute node and every core of its group: build the per-core tile (core_tile.hpp) and
// cost it. Identical (tile, core) pairs are costed once: cores are keyed by their performance
// representative, tiles by their full description, exactly the reference's node_key +
// has_same_performance dedup. Distinct pairs run on `threads` threads; the result does not depend
// on the thread count. A node the cost model cannot cost gets the reference's ideal-cycle fallback
// (backend "ideal-cycle") with the reason in words and the model's own text, widened by the
// operand widths when memory fit failed, as its detail (fallback_reason.hpp,
// report/cost_fallbacks.hpp), and the traffic model's energy (traffic_model.hpp) where the
// reference has 0 pJ; under the `full` cost profile (cost_profile.hpp) its latency is also at
// least the traffic model's port cycles.
// A core claimed by a cost backend (cost_backend.hpp: the AIE backend) is costed by it instead;
// its request joins the dedup key. With a CostCache (cost_cache.hpp) the dedup spans groups, runs
// and accelerators: cores are then keyed by their performance class in the cache
// (same_performance, claimed by the same backend), so a run whose groups repeat the same layers (a
// stack of identical blocks, a fused group cut per layer), and a sweep's points whose cores
// perform alike, cost each pair once.
#pragma once

#include <vector>

#include "stream/cost/core_tile.hpp"
#include "stream/cost/cost_backend.hpp"
#include "stream/cost/cost_cache.hpp"
#include "stream/cost/cost_model.hpp"
#include "stream/cost/cost_profile.hpp"
#include "stream/cost/cost_table.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::cost {

struct CostEstimateOptions {
  int threads = 1;
  int lpf_limit = kDefaultLpfLimit;
  /// Per-core cost backends in registration order (Registries::cost_backend_list()); each core
  /// goes to the one select_cost_backend picks, else to the built-in ZigZag-equivalent model.
  /// Empty: the built-in model costs every core.
  std::vector<CostBackend> backends;
  CostCache* cache = nullptr;  ///< read and filled when set
  /// Applied to the entries as they leave; the cache holds them under the reference profile, so
  /// that runs of either profile share it.
  CostProfile profile = CostProfile::Reference;
};

[[nodiscard]] STREAM_API CostTable estimate_costs(const tiling::TiledGroup& tiled,
                                                  const hardware::Accelerator& accelerator,
                                                  const CostEstimateOptions& options = {});

}  // namespace stream::cost
