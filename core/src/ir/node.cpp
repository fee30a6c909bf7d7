#include "stream/ir/node.hpp"

#include <algorithm>
#include <array>

#include "stream/error.hpp"

namespace stream {

std::string_view name(NodeKind k) {
  static constexpr std::array<std::string_view, 5> names{"computation", "normalization", "in_edge", "out_edge",
                                                         "fusion_edge"};
  return names[static_cast<std::size_t>(k)];
}

std::string_view name(AccessKind k) {
  static constexpr std::array<std::string_view, 3> names{"affine", "piecewise_affine", "data_dependent"};
  return names[static_cast<std::size_t>(k)];
}

const TensorPtr& Node::operand(std::size_t i) const {
  return i < inputs.size() ? inputs.at(i) : outputs.at(i - inputs.size());
}

const AffineMap* Node::mapping_of(const Tensor& tensor) const {
  for (std::size_t i = 0; i < num_operands() && i < operand_mapping.size(); ++i)
    if (operand(i).get() == &tensor) return &operand_mapping[i];
  return nullptr;
}

std::string Node::dim_name(int p) const {
  if (p >= 0 && static_cast<std::size_t>(p) < dim_names.size() && !dim_names[static_cast<std::size_t>(p)].empty())
    return dim_names[static_cast<std::size_t>(p)];
  return "d" + std::to_string(p);
}

Node make_computation(std::string name, std::string type, std::vector<TensorPtr> inputs,
                      std::vector<TensorPtr> outputs, std::vector<AffineMap> operand_mapping) {
  Node n;
  n.kind = NodeKind::Computation;
  n.name = std::move(name);
  n.type = std::move(type);
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  n.operand_mapping = std::move(operand_mapping);
  validate(n);
  return n;
}

Node make_normalization(std::string name, std::string type, TensorPtr input, TensorPtr output,
                        std::vector<int> reduction_axes) {
  Node n;
  n.kind = NodeKind::Normalization;
  n.name = std::move(name);
  n.type = std::move(type);
  const int rank = output ? static_cast<int>(output->rank()) : 0;
  n.inputs = {std::move(input)};
  n.outputs = {std::move(output)};
  n.operand_mapping = {AffineMap::identity(rank), AffineMap::identity(rank)};
  n.reduction_axes = std::move(reduction_axes);
  validate(n);
  return n;
}

Node make_in_edge(std::string name, TensorPtr output) {
  Node n;
  n.kind = NodeKind::InEdge;
  n.name = std::move(name);
  n.outputs = {std::move(output)};
  validate(n);
  return n;
}

Node make_out_edge(std::string name, TensorPtr input) {
  Node n;
  n.kind = NodeKind::OutEdge;
  n.name = std::move(name);
  n.inputs = {std::move(input)};
  validate(n);
  return n;
}

Node make_fusion_edge(std::string name, std::string op_type, TensorPtr input, TensorPtr output) {
  Node n;
  n.kind = NodeKind::FusionEdge;
  n.name = std::move(name);
  n.type = std::move(op_type);
  n.inputs = {std::move(input)};
  n.outputs = {std::move(output)};
  validate(n);
  return n;
}

void validate(const Node& n) {
  if (n.name.empty()) throw Error("a node has an empty name (type '" + n.type + "')");
  for (std::size_t i = 0; i < n.num_operands(); ++i)
    if (!n.operand(i)) fail_node(n.name, "#" + std::to_string(i), "operand tensor is null");
  switch (n.kind) {
    case NodeKind::InEdge:
      if (!n.inputs.empty() || n.outputs.size() != 1) fail_node(n.name, "", "an InEdge has exactly one output and no input");
      return;
    case NodeKind::OutEdge:
      if (n.inputs.size() != 1 || !n.outputs.empty()) fail_node(n.name, "", "an OutEdge has exactly one input and no output");
      return;
    case NodeKind::FusionEdge:
      if (n.inputs.size() != 1 || n.outputs.size() != 1)
        fail_node(n.name, "", "a FusionEdge has exactly one input and one output");
      if (!n.operand_mapping.empty()) fail_node(n.name, "", "a FusionEdge carries no operand mapping");
      return;
    case NodeKind::Computation:
    case NodeKind::Normalization:
      break;
  }
  if (n.outputs.empty()) fail_node(n.name, "", "a computation node needs at least one output");
  if (n.operand_mapping.size() != n.num_operands())
    fail_node(n.name, "",
              "has " + std::to_string(n.num_operands()) + " operands but " + std::to_string(n.operand_mapping.size()) +
                  " affine maps (one per operand, inputs then outputs)");
  const int dims = n.num_dims();
  for (std::size_t i = 0; i < n.num_operands(); ++i) {
    const auto& map = n.operand_mapping[i];
    const auto& t = *n.operand(i);
    if (map.num_dims() != dims)
      fail_node(n.name, t.name,
                "map " + map.str() + " has " + std::to_string(map.num_dims()) + " dims; the node's maps have " +
                    std::to_string(dims));
    if (map.num_results() != t.rank())
      fail_node(n.name, t.name,
                "map " + map.str() + " has " + std::to_string(map.num_results()) + " results for a tensor of rank " +
                    std::to_string(t.rank()));
  }
  for (const auto& [d, extent] : n.window_extents) {
    if (d < 0 || d >= dims) fail_node(n.name, "", "window extent for d" + std::to_string(d) + " outside the iteration space");
    if (extent < 1) fail_node(n.name, "", "window extent of d" + std::to_string(d) + " must be >= 1");
  }
  for (int a : n.reduction_axes)
    if (a < 0 || a >= dims) fail_node(n.name, "", "reduction axis " + std::to_string(a) + " outside the iteration space");
  if (!n.access_overrides.empty() && n.access_overrides.size() != n.num_operands())
    fail_node(n.name, "", "access overrides must have one entry per operand");
  for (auto i : n.state_inputs)
    if (i >= n.inputs.size()) fail_node(n.name, "", "state input #" + std::to_string(i) + " is not an input");
  if (!n.dim_names.empty() && n.dim_names.size() != static_cast<std::size_t>(dims))
    fail_node(n.name, "", "dim_names must name every one of the " + std::to_string(dims) + " dims");
}

}  // namespace stream
