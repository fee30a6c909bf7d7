// Element-wise operators with NumPy broadcasting: one loop per output axis, every input
// right-aligned to the output (size-1 axes read at 0). Parameter inputs that are not data (Clip's
// bounds, int64 constants) are not operands. Cast, and the QuantizeLinear/DequantizeLinear that QDQ
// folding leaves behind, are element-wise conversions of type "Cast".
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

std::vector<Node> elementwise(const OnnxNodeView& v, OnnxParseContext& ctx, const std::string& type, std::size_t max_inputs) {
  require_inputs(v, 1);
  std::vector<TensorPtr> ins;
  for (std::size_t i = 0; i < v.inputs.size() && i < max_inputs; ++i) {
    if (!v.inputs[i].present()) continue;
    // An int64 constant operand (a Pow exponent, say) is a parameter, not data.
    if (i > 0 && !v.inputs[i].dtype && v.inputs[i].is_constant) continue;
    ins.push_back(ctx.tensor(v.inputs[i].name));
  }
  auto Y = output_tensor(v, ctx, 0);
  for (std::size_t i = 1; i < v.outputs.size(); ++i)
    if (v.outputs[i].present()) v.fail("only one output is supported", v.outputs[i].name);
  const int dims = static_cast<int>(Y->rank());
  std::vector<AffineMap> maps;
  for (const auto& t : ins) maps.push_back(broadcast_map(v, *t, Y->shape, dims));
  maps.push_back(AffineMap::identity(dims));
  return {make_computation(v.name, type, ins, {Y}, maps)};
}

OnnxParser elementwise_parser(std::size_t max_inputs = static_cast<std::size_t>(-1)) {
  return [max_inputs](const OnnxNodeView& v, OnnxParseContext& ctx) { return elementwise(v, ctx, v.op_type, max_inputs); };
}

std::vector<Node> parse_cast(const OnnxNodeView& v, OnnxParseContext& ctx) { return elementwise(v, ctx, "Cast", 1); }

}  // namespace

void add_elementwise_parsers(std::vector<ParserEntry>& out) {
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "PRelu", "Sum", "Max", "Min", "Mean", "Mod", "BitShift"})
    out.emplace_back(op, elementwise_parser());
  for (const char* op : {"Relu", "Silu", "Gelu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Erf", "LeakyRelu",
                         "HardSigmoid", "HardSwish", "Neg", "Abs", "Reciprocal", "Elu", "Selu", "Celu", "Softplus",
                         "Softsign", "Mish", "Floor", "Ceil", "Round", "Sin", "Cos", "Sign", "ThresholdedRelu"})
    out.emplace_back(op, elementwise_parser(1));
  out.emplace_back("Clip", elementwise_parser(1));  // min/max are scalar parameters
  // Activations of later opsets (Swish 24, BitwiseNot 18) and the rarer unary functions; a running
  // sum or product along an axis (CumSum, CumProd) is one operation per element too (its axis is
  // an int64 parameter).
  for (const char* op : {"Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Swish", "Shrink",
                         "BitwiseNot", "CumSum", "CumProd", "Bernoulli"})
    out.emplace_back(op, elementwise_parser(1));
  for (const char* op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "SwiGLU"}) out.emplace_back(op, elementwise_parser());
  out.emplace_back("Cast", parse_cast);
  out.emplace_back("CastLike", parse_cast);
  out.emplace_back("QuantizeLinear", parse_cast);
  out.emplace_back("DequantizeLinear", parse_cast);
}

}  // namespace stream::onnx_frontend
