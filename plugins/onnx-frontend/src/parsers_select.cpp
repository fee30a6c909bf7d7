// TopK, ArgMax and ArgMin: selections along one axis. Each is a reduction over that axis: every
// element of the input is read (an affine read), and the outputs hold what the data selects
// (which element lands in a TopK slot, which index an ArgMax writes), so the outputs are marked
// data-dependent and fusion analysis cuts after the node: a consumer cannot be tiled against them.
// Dims: one per output axis, then the reduction loop r over the input axis. A kept unit axis
// (keepdims=1) has its own unit loop instead of a constant 0, so the per-core cost model accepts
// the maps.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

// Maps for a selection along `axis` of X (rank r): the output keeps every axis (the selected one
// with the output's extent), dims d0..d(r-1) index the output, d_r the input axis.
struct SelectionMaps {
  AffineMap input, output;
  std::vector<std::string> names;
};

SelectionMaps selection_maps(std::size_t rank, int axis, bool output_keeps_axis) {
  const int r = static_cast<int>(rank);
  const int out_rank = output_keeps_axis ? r : r - 1;
  const int dims = out_rank + 1, red = out_rank;
  std::vector<E> x, y;
  for (int a = 0; a < r; ++a) {
    const int out_dim = a < axis || output_keeps_axis ? a : a - 1;
    x.push_back(a == axis ? E::dim(red) : E::dim(out_dim));
  }
  for (int a = 0; a < out_rank; ++a) y.push_back(E::dim(a));
  auto names = numbered_names("d", static_cast<std::size_t>(out_rank));
  names.push_back("r");
  return {AffineMap(dims, x), AffineMap(dims, y), names};
}

std::vector<Node> parse_arg_reduce(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (X->rank() == 0) v.fail("input must have rank >= 1", X->name);
  const int axis = normalize_axis(v, v.attr_int("axis", 0), X->rank());
  const auto keep = v.attr_int("keepdims", 1);
  if (keep != 0 && keep != 1) v.fail("keepdims must be 0 or 1, got " + std::to_string(keep));
  if (const auto last = v.attr_int("select_last_index", 0); last != 0 && last != 1)
    v.fail("select_last_index must be 0 or 1, got " + std::to_string(last));
  auto expected = X->shape;
  if (keep != 0) expected[static_cast<std::size_t>(axis)] = 1;
  else expected.erase(expected.begin() + axis);
  if (Y->shape != expected) v.fail("output shape does not match the input reduced over axis " + std::to_string(axis), Y->name);
  const auto m = selection_maps(X->rank(), axis, keep != 0);
  auto node = make_computation(v.name, v.op_type, {X}, {Y}, {m.input, m.output});
  node.dim_names = m.names;
  node.access_overrides = {std::nullopt, routed_by(m.output, "")};
  validate(node);
  return {std::move(node)};
}

std::int64_t topk_k(const OnnxNodeView& v) {
  if (v.opset > 0 && v.opset < 10) return v.attr_int("k", -1);
  if (!has_input(v, 1)) v.fail("K (input 1) is missing");
  const auto& k = v.inputs[1];
  if (!k.int_values || k.int_values->size() != 1)
    v.fail("K must be a constant one-element integer tensor (computed K is not supported)", k.name);
  return k.int_values->front();
}

std::vector<Node> parse_topk(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  if (X->rank() == 0) v.fail("input must have rank >= 1", X->name);
  const int axis = normalize_axis(v, v.attr_int("axis", -1), X->rank());
  for (const char* flag : {"largest", "sorted"})
    if (const auto f = v.attr_int(flag, 1); f != 0 && f != 1) v.fail(std::string(flag) + " must be 0 or 1, got " + std::to_string(f));
  const auto k = topk_k(v);
  const auto n = X->shape[static_cast<std::size_t>(axis)];
  if (k < 1 || k > n) v.fail("K=" + std::to_string(k) + " is outside [1, " + std::to_string(n) + "] for axis " + std::to_string(axis));
  auto expected = X->shape;
  expected[static_cast<std::size_t>(axis)] = k;
  std::vector<TensorPtr> outs;
  for (std::size_t i = 0; i < 2 && i < v.outputs.size(); ++i) {
    if (!v.outputs[i].present()) continue;
    auto t = ctx.tensor(v.outputs[i].name);
    if (t->shape != expected) v.fail("output shape does not match the input with axis " + std::to_string(axis) + " cut to K", t->name);
    outs.push_back(t);
  }
  if (outs.empty()) v.fail("neither Values nor Indices is used");
  const auto m = selection_maps(X->rank(), axis, true);
  std::vector<AffineMap> maps{m.input};
  for (std::size_t i = 0; i < outs.size(); ++i) maps.push_back(m.output);
  auto node = make_computation(v.name, "TopK", {X}, outs, maps);
  node.dim_names = m.names;
  node.access_overrides.push_back(std::nullopt);
  for (std::size_t i = 0; i < outs.size(); ++i) node.access_overrides.push_back(routed_by(m.output, ""));
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_selection_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("ArgMax", parse_arg_reduce);
  out.emplace_back("ArgMin", parse_arg_reduce);
  out.emplace_back("TopK", parse_topk);
}

}  // namespace stream::onnx_frontend
