// The integer operators of int8 models (the ONNX zoo's *-int8 CNNs): QLinearConv, QLinearMatMul,
// ConvInteger, MatMulInteger. Each is the integer Conv/MatMul of its data inputs, with the same
// maps and node type as the Conv/MatMul that QDQ folding leaves of a QuantizeLinear/
// DequantizeLinear pair: scales and zero points are not operands (the frontend does not turn them
// into graph inputs either), and the output keeps the model's element type (int8/uint8 for
// QLinear*, int32 for *Integer). A QLinearConv bias is, like Conv's, not an operand.
#include <stream/ir/matmul_layout.hpp>
#include "contractions.hpp"
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

struct QuantSlots {
  std::size_t a, b;       // data inputs
  std::size_t required;   // inputs that must be present
  bool requantizes;       // QLinear*: output int8/uint8, else int32
  std::string node_type;  // "Conv" or "MatMul"
};

void require_int8(const OnnxNodeView& v, const TensorPtr& t) {
  if (t->dtype != DType::i8 && t->dtype != DType::u8)
    v.fail("expects int8 or uint8 data, got " + std::string(name(t->dtype)), t->name);
}

void check_output_type(const OnnxNodeView& v, const QuantSlots& s, const TensorPtr& Y) {
  if (!s.requantizes) {
    if (Y->dtype != DType::i32) v.fail("output must be int32, got " + std::string(name(Y->dtype)), Y->name);
    return;
  }
  require_int8(v, Y);
  // y_zero_point (slot 7) fixes the output type when present.
  if (has_input(v, 7) && v.inputs[7].onnx_type != 0 && v.inputs[7].onnx_type != v.outputs[0].onnx_type)
    v.fail("output type differs from y_zero_point's type", v.inputs[7].name);
}

OnnxParser quantized_parser(QuantSlots s) {
  return [s](const OnnxNodeView& v, OnnxParseContext& ctx) -> std::vector<Node> {
    require_inputs(v, s.required);
    if (s.requantizes)
      for (std::size_t scale : {1, 4, 6})
        if (v.inputs[scale].dtype != DType::f32 && v.inputs[scale].dtype != DType::f16 && v.inputs[scale].dtype != DType::bf16)
          v.fail("scale (input " + std::to_string(scale) + ") must be a floating-point tensor", v.inputs[scale].name);
    auto A = input_tensor(v, ctx, s.a);
    auto B = input_tensor(v, ctx, s.b);
    require_int8(v, A);
    require_int8(v, B);
    auto Y = output_tensor(v, ctx, 0);
    check_output_type(v, s, Y);
    if (s.node_type == "Conv") return conv_nodes(v, ctx, A, B, Y, "Conv");
    if (A->rank() < 1 || B->rank() < 1) v.fail("operands must have rank >= 1");
    return {matmul_node(v.name, "MatMul", A, B, Y)};
  };
}

}  // namespace

std::vector<std::size_t> quantized_parameter_inputs(const std::string& op_type) {
  if (op_type == "QLinearConv" || op_type == "QLinearMatMul") return {1, 2, 4, 5, 6, 7};
  if (op_type == "ConvInteger" || op_type == "MatMulInteger") return {2, 3};
  return {};
}

void add_quantized_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("QLinearConv", quantized_parser({0, 3, 8, true, "Conv"}));
  out.emplace_back("QLinearMatMul", quantized_parser({0, 3, 8, true, "MatMul"}));
  out.emplace_back("ConvInteger", quantized_parser({0, 1, 2, false, "Conv"}));
  out.emplace_back("MatMulInteger", quantized_parser({0, 1, 2, false, "MatMul"}));
}

}  // namespace stream::onnx_frontend
