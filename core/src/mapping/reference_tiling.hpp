// The reference's automatic intra-core tiling of a fusion group (`--compat stream-1.13`, rule A2
// of docs/pipeline.md; Stream 1.13's GenericMappingGenerator._build_intra_core_tiling), quirks
// included, where our own tiler (auto_mapping.cpp) deliberately differs:
//
//  * the fusion tiling sizes a streamed intermediate with only the fusion dim shrunk (the other
//    inter-core splits are not applied) against half the first candidate core's memory;
//  * the capacity tiler charges every tensor at its full size over the group-wide unrolling of its
//    dims, on every candidate core of every node reading or writing it, also on a node that runs
//    whole on one core (the SIMD core of attention's Softmax); a tensor's dims are those of the
//    first node listing it; nonlinear reductions are never tiled;
//  * a greedy step must lower the worst overflow strictly, and a search that stops with a core
//    still over keeps the seed.
// The reference tries its dims in Python set order (its hash depends on PYTHONHASHSEED); here the
// order is ascending, which gives the same result except on an exact tie between two dims.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "stream/hardware/accelerator.hpp"
#include "stream/ir/iteration_space.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/mapping.hpp"

namespace stream::mapping {

/// A fusion group as the automatic mapping sees it.
struct ReferenceGroup {
  struct Member {
    const Node* node = nullptr;
    std::vector<int> global;  ///< unified dim per local dim
    std::vector<IteratorKind> kinds;
    std::vector<int> candidates;  ///< the cores the node may run on, before the split picks some
  };
  std::vector<Member> members;  ///< compute nodes in workload order
  std::vector<std::int64_t> dim_size;  ///< per unified dim
  std::map<int, std::int64_t> unroll;  ///< per unified dim: the largest inter-core split on it
  std::set<int> recurrence;  ///< sequential dims
  std::set<int> nonlinear;   ///< reductions of nonlinear operators (Softmax, norms): never tiled
  double fill_fraction = 0.5;
  std::int64_t max_tiles = 1024;
};

/// The reference's tiling of a group without a caller tiling: its fusion tiling or else its
/// whole-layer tile, refined by its capacity tiler. `tile_cap_reached` is set when the capacity
/// tiler stopped with a core still over its fill (the seed is kept then).
[[nodiscard]] std::vector<TileEntry> reference_tiling(const hardware::Accelerator& accelerator, const ReferenceGroup& group,
                                                      bool& tile_cap_reached);

}  // namespace stream::mapping
