// A decomposition under construction: the node it replaces, its sub-operators and the helpers
// every decomposition needs (tags, edge nodes, intermediate tensors, reduction maps).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <stream/error.hpp>
#include <stream/ir/workload.hpp>

namespace stream::decompositions {

class Subgraph {
 public:
  explicit Subgraph(const Node& origin) : origin_(origin), tag_(origin.type + ":" + origin.name) {}

  [[nodiscard]] const Node& origin() const { return origin_; }
  /// An intermediate tensor "<origin>_<role>" of x's element type.
  [[nodiscard]] TensorPtr tensor(const std::string& role, DType dtype, std::vector<std::int64_t> shape) const {
    return make_tensor(origin_.name + "_" + role, dtype, std::move(shape));
  }
  /// A sub-operator "<origin>_<role>" tagged with the origin's fused kernel.
  void op(const std::string& role, const std::string& type, std::vector<TensorPtr> inputs,
          std::vector<TensorPtr> outputs, std::vector<AffineMap> maps) {
    Node n = make_computation(origin_.name + "_" + role, type, std::move(inputs), std::move(outputs), std::move(maps));
    n.fused_kernel = tag_;
    ops_.push_back(std::move(n));
  }
  /// Workload(InEdge per distinct origin input, the sub-operators, OutEdge per origin output);
  /// OutEdges are named by `out_names` (one per output).
  [[nodiscard]] Workload build(const std::vector<std::string>& out_names) &&;

  [[noreturn]] void fail(const std::string& message) const {
    throw Error(origin_.type + " decomposition: " + message, Location{.node = origin_.name});
  }

 private:
  const Node& origin_;
  std::string tag_;
  std::vector<Node> ops_;
};

/// The map over `rank` dims whose results are the dims not in `axes`, in order.
[[nodiscard]] AffineMap drop_axes(int rank, const std::vector<int>& axes);
/// `shape` without the axes in `axes`.
[[nodiscard]] std::vector<std::int64_t> drop_axes(const std::vector<std::int64_t>& shape, const std::vector<int>& axes);
/// Numpy-style broadcast read of a tensor of shape `shape` from an iteration space of extents
/// `extents` (trailing axes aligned; extent-1 axes read index 0).
[[nodiscard]] AffineMap broadcast_map(const std::vector<std::int64_t>& extents, const std::vector<std::int64_t>& shape);

}  // namespace stream::decompositions
