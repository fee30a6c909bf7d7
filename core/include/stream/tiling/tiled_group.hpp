// Intra-core (fusion) tiling: one fusion group becomes ONE steady-state iteration (spec §4.3).
//
// Input: a group workload, the mapping of its compute nodes (candidate cores and inter-core
// split per node-local dim) and the fused group's intra-core tiling (node, local dim, tile) in
// file order. Output: a TiledGroup whose workload has every split unified dim shrunk to
// size / nb_splits, with nb_splits = size / (tile x unroll), so that the tiled workload covers all
// cores together for one iteration (a tile x unroll that does not divide the size gives
// ceil(size / (tile x unroll)) balanced iterations, costed on the longest: numeric/uneven_split.hpp);
// `fusion_splits` keeps the split dims in tiling order (that order is the temporal loop order,
// innermost first, of every iteration space). Tensors are reshaped by the affine ranges of their
// accesses over the new sizes, clipped to the old shape (the reference's
// get_tensor_shape_with_dimension_sizes).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/group_mapping.hpp"

namespace stream::tiling {

struct STREAM_API TiledGroup {
  Workload workload;  ///< one steady-state iteration
  std::vector<mapping::NodeMapping> mapping;  ///< per node index (same indices as the input group)
  /// (unified dim, nb splits) in intra-core tiling order; iterations = product of the splits.
  std::vector<std::pair<int, std::int64_t>> fusion_splits;
  /// (unified dim, factor), first appearance, keeping the largest factor per dim.
  std::vector<std::pair<int, std::int64_t>> spatial_unrollings;
  std::int64_t total_mac_ops = 0;  ///< conv/gemm/matmul/linear MACs of the untiled group
  /// Every tensor's shape in the untiled group, by name: the whole tensor a tile is a box of.
  std::map<std::string, std::vector<std::int64_t>> untiled_shapes;
  [[nodiscard]] std::int64_t iterations() const;
};

/// Throws stream::Error (naming node and dim) for a tile below 1 or a dim the node does not have.
[[nodiscard]] STREAM_API TiledGroup tile(const Workload& group, const mapping::GroupMapping& mapping);

/// Shape of `tensor` when the unified dims take `dim_sizes` (affine ranges clipped to the current
/// shape, maximum over every node that accesses it).
[[nodiscard]] std::vector<std::int64_t> tensor_shape_with_sizes(const Workload& workload, const Tensor& tensor,
                                                                const std::vector<std::int64_t>& dim_sizes);

/// Shape of `tensor` in the tiled workload when the unified dims take `dim_sizes`: the
/// producer's extent for a computed tensor, the readers' maximum for a graph input.
[[nodiscard]] std::vector<std::int64_t> tiled_tensor_shape(const Workload& workload, const Tensor& tensor,
                                                           const std::vector<std::int64_t>& dim_sizes);

/// Shape of `tensor` as node `node_index` accesses it when its local dims take `local_sizes`
/// (clipped to the tensor's shape): a per-core tile.
[[nodiscard]] std::vector<std::int64_t> tensor_shape_for_node(const Workload& workload, std::size_t node_index,
                                                              const Tensor& tensor,
                                                              const std::vector<std::int64_t>& local_sizes);

}  // namespace stream::tiling
