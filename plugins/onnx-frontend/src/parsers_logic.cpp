// Comparisons, logic operators and Where: element-wise with NumPy broadcasting (one loop per
// output axis, every operand right-aligned to the output, size-1 axes read at 0). Their bool
// operands are data (8-bit, DType::b8) when a kept node reads them (the frontend decides, see
// drop_metadata_nodes); int64 operands are index arithmetic the IR does not model (a Range, a
// position id), so they are parameters: a Less over two Ranges becomes a mask generator with no
// operand at all. A single-element constant (the 0 a mask is compared with, the -inf a Where fills
// in) is an immediate, not a tensor the core streams in.
#include <set>

#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

bool is_single_element_constant(const OnnxValue& v) {
  if (!v.is_constant) return false;
  std::int64_t count = 1;
  for (auto e : v.shape) count *= e;
  return count == 1;
}

std::vector<Node> broadcast_node(const OnnxNodeView& v, OnnxParseContext& ctx, const std::vector<TensorPtr>& ins) {
  auto Y = output_tensor(v, ctx, 0);
  if (v.outputs.size() > 1) v.fail("has " + std::to_string(v.outputs.size()) + " outputs; expected one");
  const int dims = static_cast<int>(Y->rank());
  std::vector<AffineMap> maps;
  for (const auto& t : ins) maps.push_back(broadcast_map(v, *t, Y->shape, dims));
  maps.push_back(AffineMap::identity(dims));
  auto node = make_computation(v.name, v.op_type, ins, {Y}, maps);
  return {std::move(node)};
}

// Equal, Less, ..., And, Or, Xor (two inputs) and Not (one input).
OnnxParser logic_parser(std::size_t arity) {
  return [arity](const OnnxNodeView& v, OnnxParseContext& ctx) {
    require_inputs(v, arity);
    if (v.inputs.size() > arity)
      v.fail("has " + std::to_string(v.inputs.size()) + " inputs; expected " + std::to_string(arity));
    std::vector<TensorPtr> ins;
    for (std::size_t i = 0; i < arity; ++i)  // int64 operands are parameters, a constant scalar an immediate
      if (v.inputs[i].dtype && !is_single_element_constant(v.inputs[i])) ins.push_back(input_tensor(v, ctx, i));
    return broadcast_node(v, ctx, ins);
  };
}

std::vector<Node> parse_where(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  if (v.inputs.size() > 3) v.fail("has " + std::to_string(v.inputs.size()) + " inputs; expected 3 (condition, X, Y)");
  const auto& cond = v.inputs[0];
  if (cond.onnx_type != 0 && cond.dtype != DType::b8)
    v.fail("the condition must be a bool tensor", cond.name);
  if (v.inputs[1].onnx_type != v.inputs[2].onnx_type)
    v.fail("X and Y have different element types", v.inputs[2].name);
  std::vector<TensorPtr> ins;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!v.inputs[i].dtype) continue;  // int64 metadata
    if (i > 0 && is_single_element_constant(v.inputs[i])) continue;
    ins.push_back(input_tensor(v, ctx, i));
  }
  return broadcast_node(v, ctx, ins);
}

}  // namespace

bool takes_immediates(const std::string& op_type) {
  static const std::set<std::string> ops{"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
                                         "And", "Or", "Xor", "Not", "Where"};
  return ops.count(op_type) != 0;
}

void add_logic_parsers(std::vector<ParserEntry>& out) {
  for (const char* op : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"})
    out.emplace_back(op, logic_parser(2));
  out.emplace_back("Not", logic_parser(1));
  out.emplace_back("Where", parse_where);
}

}  // namespace stream::onnx_frontend
