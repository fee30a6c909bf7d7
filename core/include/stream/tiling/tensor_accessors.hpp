// Which iteration-space nodes access each tensor of a workload, indexed once.
//
// The widest shape of a tensor over new dim sizes (tensor_shape_with_sizes) is a maximum over
// every node that accesses it. Finding those nodes by scanning the whole workload per tensor made
// tiling and costing a fused group quadratic in its size (a 20,000-node chain spent most of its
// run in Node::mapping_of); this index is built in one pass over the operands and answers each
// tensor with its accessors in node order, the order the scan visited them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "stream/ir/workload.hpp"

namespace stream::tiling {

class TensorAccessors {
 public:
  explicit TensorAccessors(const Workload& workload);
  /// Indices, ascending, of the iteration-space nodes that have a mapping for `tensor` (the same
  /// tensor object: Node::mapping_of compares by identity); empty for a tensor none accesses.
  [[nodiscard]] const std::vector<std::size_t>& of(const Tensor& tensor) const;

 private:
  std::unordered_map<const Tensor*, std::vector<std::size_t>> accessors_;  // looked up only, never iterated
};

/// tensor_shape_with_sizes (tiled_group.hpp) with the accessors taken from `accessors`, built on
/// the same `workload`.
[[nodiscard]] std::vector<std::int64_t> tensor_shape_with_sizes(const Workload& workload, const TensorAccessors& accessors,
                                                                const Tensor& tensor,
                                                                const std::vector<std::int64_t>& dim_sizes);

}  // namespace stream::tiling
