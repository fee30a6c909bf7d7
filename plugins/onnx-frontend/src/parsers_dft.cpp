// DFT: a discrete Fourier transform along one axis of a real (last axis 1) or complex (last axis
// 2) signal, as a contraction: every output frequency k and component reads every signal sample n
// and input component. Loops: the output's axes (the transformed axis walking frequencies, the
// last the output's components), then n over the signal and ci over the input's components (both
// reductions). The axis is an attribute before opset 20 (default 1), then a constant input
// (default -2); dft_length, when given, may not cut the signal short (the samples read would be
// fewer than the input's axis, which the loop spans).
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::int64_t constant_scalar(const OnnxNodeView& v, std::size_t i, const std::string& what) {
  const auto& in = v.inputs[i];
  if (!in.int_values || in.int_values->size() != 1) v.fail(what + " must be a constant one-element integer tensor", in.name);
  return in.int_values->front();
}

std::vector<Node> parse_dft(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const int r = static_cast<int>(X->rank());
  if (r < 2 || Y->rank() != X->rank() || (X->shape.back() != 1 && X->shape.back() != 2))
    v.fail("the signal must be (..., n, 1) or (..., n, 2) and the output of its rank", X->name);
  std::int64_t axis_value = v.attr_int("axis", 1);
  if (v.opset >= 20) axis_value = has_input(v, 2) ? constant_scalar(v, 2, "axis") : -2;
  const int axis = normalize_axis(v, axis_value, X->rank());
  if (axis == r - 1) v.fail("the transformed axis cannot be the components' (last) axis");
  if (has_input(v, 1) && constant_scalar(v, 1, "dft_length") < X->shape[static_cast<std::size_t>(axis)])
    v.fail("a dft_length shorter than the signal is not supported (the samples read would be fewer than the axis)");
  // Dims: Y's axes 0..r-1, then n (signal sample) and ci (input component).
  const int n = r, ci = r + 1;
  std::vector<E> xr;
  for (int a = 0; a < r; ++a) xr.push_back(a == axis ? E::dim(n) : a == r - 1 ? E::dim(ci) : E::dim(a));
  std::vector<E> yr;
  for (int a = 0; a < r; ++a) yr.push_back(E::dim(a));
  auto node = make_computation(v.name, "DFT", {X}, {Y}, {AffineMap(r + 2, xr), AffineMap(r + 2, yr)});
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_dft_parsers(std::vector<ParserEntry>& out) { out.emplace_back("DFT", parse_dft); }

}  // namespace stream::onnx_frontend
