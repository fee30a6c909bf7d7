// Workload nodes.
//
// One Node type with a kind covers the reference's class family:
//  - Computation: an operator with an iteration space; operand_mapping has one AffineMap per
//    operand, inputs first then outputs, all over the same num_dims loop dims.
//  - Normalization: a Computation whose maps are identities and whose normalised axes are stored
//    in reduction_axes (softmax, layer norm, ...), because identity maps cannot express them.
//  - InEdge / OutEdge: graph inputs, initializers and outputs (and fusion-group entries/exits).
//  - FusionEdge: a layout operation that could not be folded into its readers; no maps, and it
//    splits fusion groups.
// Everything else (loop sizes, iterator kinds, access classes) is derived, see iteration_space.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/access.hpp"
#include "stream/ir/affine_map.hpp"
#include "stream/ir/tensor.hpp"

namespace stream {

enum class NodeKind { Computation, Normalization, InEdge, OutEdge, FusionEdge };

[[nodiscard]] STREAM_API std::string_view name(NodeKind k);  ///< "computation", "normalization", "in_edge", ...

struct STREAM_API Node {
  NodeKind kind = NodeKind::Computation;
  std::string name;
  std::string type;  ///< operator type ("Conv", "Softmax", ...); the layout op type for a FusionEdge
  std::vector<TensorPtr> inputs;
  std::vector<TensorPtr> outputs;
  std::vector<AffineMap> operand_mapping;  ///< inputs then outputs; empty for edges
  /// Extents of dims that no operand axis indexes alone (a pool's kernel window): (dim, extent).
  std::vector<std::pair<int, std::int64_t>> window_extents;
  std::optional<std::string> fused_kernel;  ///< "<OpType>:<name>" of the kernel this node came from
  std::vector<int> reduction_axes;          ///< Normalization: the normalised iteration positions
  std::vector<std::string> dim_names;       ///< optional readable loop names ("k", "oy", ...)
  /// Per operand (same order as operand_mapping): an explicit access relation; unset means derived.
  std::vector<std::optional<AccessRelation>> access_overrides;
  /// Positions in `inputs` of tensors that carry a recurrent state (h(t-1) of an LSTM step) although
  /// no output has their shape; read at `t + c` they make t SEQUENTIAL (spec §1.8's node flag).
  std::vector<std::size_t> state_inputs;

  [[nodiscard]] bool has_iteration_space() const {
    return kind == NodeKind::Computation || kind == NodeKind::Normalization;
  }
  [[nodiscard]] int num_dims() const {
    return operand_mapping.empty() ? 0 : operand_mapping.front().num_dims();
  }
  [[nodiscard]] std::size_t num_operands() const { return inputs.size() + outputs.size(); }
  /// Operand i in inputs-then-outputs order.
  [[nodiscard]] const TensorPtr& operand(std::size_t i) const;
  [[nodiscard]] bool is_output_operand(std::size_t i) const { return i >= inputs.size(); }
  /// The map of the first operand that is `tensor` (the reference's get_mapping), or nullptr.
  [[nodiscard]] const AffineMap* mapping_of(const Tensor& tensor) const;
  [[nodiscard]] std::string dim_name(int position) const;  ///< dim_names[p] or "d<p>"
};

/// Builders that fill the kind-specific fields and check the node (see validate()).
[[nodiscard]] STREAM_API Node make_computation(std::string name, std::string type, std::vector<TensorPtr> inputs,
                                               std::vector<TensorPtr> outputs, std::vector<AffineMap> operand_mapping);
[[nodiscard]] STREAM_API Node make_normalization(std::string name, std::string type, TensorPtr input, TensorPtr output,
                                                 std::vector<int> reduction_axes);
[[nodiscard]] STREAM_API Node make_in_edge(std::string name, TensorPtr output);
[[nodiscard]] STREAM_API Node make_out_edge(std::string name, TensorPtr input);
[[nodiscard]] STREAM_API Node make_fusion_edge(std::string name, std::string op_type, TensorPtr input, TensorPtr output);

/// Checks the structural rules: a map per operand, one dim count for all maps, one result per
/// tensor axis, window/reduction positions inside the iteration space, edge arities. Throws a
/// stream::Error naming the node and operand.
STREAM_API void validate(const Node& node);

}  // namespace stream
