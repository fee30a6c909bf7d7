// The per-core tile of a node of a tiled group: what the cost table hands the per-core cost model
// and the cost backends (spec §4.4). The tiled loop sizes divided by the node's inter-core split
// (the longest core's share where it does not divide); operands output first, then inputs, with
// the tensor shapes of the tiled workload.
#pragma once

#include <cstddef>

#include "stream/cost/tile.hpp"
#include "stream/export.hpp"
#include "stream/tiling/tensor_accessors.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::cost {

/// The per-core tile of node `node_index` of the tiled group.
[[nodiscard]] STREAM_API Tile core_tile(const tiling::TiledGroup& tiled, std::size_t node_index);

/// The same with the group's tensor accessors indexed once by the caller, which tiles every node.
[[nodiscard]] Tile core_tile(const tiling::TiledGroup& tiled, const tiling::TensorAccessors& accessors,
                             std::size_t node_index);

}  // namespace stream::cost
