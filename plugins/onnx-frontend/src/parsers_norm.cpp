// Normalizations: Softmax, LogSoftmax, LayerNormalization, LpNormalization, InstanceNormalization
// become NormalizationNodes (identity maps, the normalised axes in reduction_axes; scalar `axis`
// attributes and negative axes honoured). BatchNormalization is an element-wise affine node
// reading the per-channel scale, bias, mean and variance.
#include <numeric>

#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

void require_single_output(const OnnxNodeView& v) {
  for (std::size_t i = 1; i < v.outputs.size(); ++i)
    if (v.outputs[i].present()) v.fail("only the first output is supported, but output " + std::to_string(i) + " is used",
                                       v.outputs[i].name);
}

std::vector<Node> parse_softmax(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  require_single_output(v);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const auto r = Y->rank();
  // Before opset 13 Softmax flattened the input at `axis` (default 1) and normalised everything after it.
  const bool legacy = opset_of(v) > 0 && opset_of(v) < 13;
  const int axis = normalize_axis(v, v.attr_int("axis", legacy ? 1 : -1), r);
  std::vector<int> axes;
  if (legacy) for (int a = axis; a < static_cast<int>(r); ++a) axes.push_back(a);
  else axes = {axis};
  return {make_normalization(v.name, v.op_type, X, Y, axes)};
}

std::vector<Node> parse_layer_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  require_single_output(v);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const auto r = Y->rank();
  const int axis = normalize_axis(v, v.attr_int("axis", -1), r);
  std::vector<int> axes(r - static_cast<std::size_t>(axis));
  std::iota(axes.begin(), axes.end(), axis);
  return {make_normalization(v.name, "LayerNormalization", X, Y, axes)};
}

std::vector<Node> parse_lp_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const int axis = normalize_axis(v, v.attr_int("axis", -1), Y->rank());
  return {make_normalization(v.name, "LpNormalization", X, Y, {axis})};
}

std::vector<Node> parse_instance_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (Y->rank() < 3) v.fail("expects an (N, C, spatial...) input", X->name);
  std::vector<int> axes;
  for (int a = 2; a < static_cast<int>(Y->rank()); ++a) axes.push_back(a);
  return {make_normalization(v.name, "InstanceNormalization", X, Y, axes)};
}

std::vector<Node> parse_batch_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 5);
  require_single_output(v);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (X->rank() < 2) v.fail("expects an (N, C, ...) input", X->name);
  const int r = static_cast<int>(X->rank());
  std::vector<TensorPtr> ins{X};
  std::vector<AffineMap> maps{AffineMap::identity(r)};
  for (std::size_t i = 1; i < 5; ++i) {
    auto p = input_tensor(v, ctx, i);
    if (p->rank() != 1) v.fail("per-channel parameter must be 1-D", p->name);
    ins.push_back(p);
    maps.emplace_back(r, std::vector<E>{E::dim(1)});
  }
  maps.push_back(AffineMap::identity(r));
  return {make_computation(v.name, "BatchNormalization", ins, {Y}, maps)};
}

}  // namespace

void add_normalization_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("Softmax", parse_softmax);
  out.emplace_back("LogSoftmax", parse_softmax);
  out.emplace_back("Hardmax", parse_softmax);  // a max and a compare over the same axes as Softmax's
  out.emplace_back("LayerNormalization", parse_layer_norm);
  out.emplace_back("LpNormalization", parse_lp_norm);
  out.emplace_back("InstanceNormalization", parse_instance_norm);
  out.emplace_back("BatchNormalization", parse_batch_norm);
}

}  // namespace stream::onnx_frontend
