// The automatic mapping used when the user gives none (spec §3.2, the reference's
// GenericMappingGenerator), for one fusion group (a Workload).
//
// For each computation node, in node order:
//  1. cores: walk the accelerator's cores in graph order, skip offchip/shim/memory kinds; take the
//     cores whose operator_types list the node's type ("specialised"), else the cores without
//     operator_types ("generic"), else every compute core (with a warning);
//  2. split: with more than one core, factor the core count over the node's dims by gcd: candidate
//     dims exclude protected ones (unified dims that are sequential or a nonlinear reduction for
//     any node of the group), stable-sorted by (parallel, size) descending; when the factors
//     multiply to fewer cores, the group shrinks to the first that many cores not yet used by an
//     earlier node of the group (or the first ones);
//  3. one fused group "Fused_Group_1" with every node; its intra-core tiling is the caller's
//     entries naming nodes of the group (disables automatic tiling), else the fusion tiling of the
//     largest fused intermediate when it overflows half the smallest core capacity, else one
//     whole-layer tile (first node's D0); the capacity tiler then starts from that tiling and, when a
//     core's share of the tensors still overflows half its capacity (fill 50 %), shrinks the dim
//     that most reduces the worst overflow, keeping at most 1024 steady-state tiles.
// The result is a Mapping that to_yaml() writes as a valid mapping file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stream/compat.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/mapping.hpp"
#include "stream/mapping/node_choice.hpp"

namespace stream::mapping {

/// The reference's capacity tiler: tiles sized so that each core's tensors fill half its memory.
inline constexpr double kDefaultFillFraction = 0.5;

struct AutoMappingOptions {
  /// Caller-supplied intra-core tiling (e.g. from parse_tiling_spec); entries whose node is in the
  /// group are used as is and disable automatic tiling.
  std::vector<TileEntry> intra_core_tiling;
  double fill_fraction = kDefaultFillFraction;
  std::int64_t max_steady_state_tiles = 1024;
  /// Cores step 1 skips (beyond the reference: the pipeline's memory fallback fills this when a
  /// group's allocation overflows a small specialised core). A node that no other core can run
  /// keeps its usual candidates.
  std::vector<int> excluded_cores;
  /// The capacity tiler's search by tile cost past the tile cap (capacity_tiler.hpp; beyond the
  /// reference: the memory fallback sets it for a group it cannot cut).
  bool by_tile_cost_past_cap = false;
  /// Stream113: the reference's fusion tiling and capacity tiler (reference_tiling.hpp, rule A2 of
  /// docs/pipeline.md) instead of ours.
  Compat compat = Compat::None;
  /// Cores and splits chosen by the caller (node_choice.hpp: the mapping optimizer's candidates),
  /// replacing steps 1 and 2 for the nodes they name; null: none.
  std::shared_ptr<const NodeChoices> choices;
};

/// Step 1 for one node: candidate core ids in graph order. `fallback` is set when neither a
/// specialised nor a generic core exists and every compute core is returned. `excluded` cores are
/// skipped unless that leaves no candidate.
[[nodiscard]] STREAM_API std::vector<int> select_cores(const Node& node, const hardware::Accelerator& accelerator,
                                                       bool* fallback = nullptr, const std::vector<int>& excluded = {});

/// Step 2: split `n_cores` over dims by gcd. `sizes`/`parallel` per local dim; `protected_dims`
/// lists local positions that may not be split. Returns (dim, factor) pairs with factor > 1.
[[nodiscard]] STREAM_API std::vector<DimSplit> factor_split(const std::vector<std::int64_t>& sizes,
                                                            const std::vector<bool>& parallel,
                                                            const std::vector<bool>& protected_dims, std::int64_t n_cores);

/// The whole mapping for one fusion group. Warnings (fallback core choice, infeasible capacity)
/// go to `diagnostics` when given. `tile_cap_reached`, when given, is set when the capacity tiler
/// stopped with a core still over its fill (the tile cap, or no smaller tile left): a smaller
/// fill fraction cannot tile any finer.
[[nodiscard]] STREAM_API Mapping generate_mapping(const Workload& workload, const hardware::Accelerator& accelerator,
                                                  const AutoMappingOptions& options = {}, Diagnostics* diagnostics = nullptr,
                                       bool* tile_cap_reached = nullptr);

}  // namespace stream::mapping
