// GatherElements, ScatterElements and TensorScatter: indexing along one axis by an int64 indices
// tensor of the data's rank. One loop per indices axis; the data (and ScatterElements' output) are
// accessed at the position the index values choose along `axis` and at the loop's position on
// every other axis: a data-dependent access routed by the indices, whose bound map reads the
// routed axis at 0 (one element per index, its position unknown), as ScatterND's. The indices are
// not an operand (as Gather's).
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

// The data's bound map: the loop on every axis but `axis`, which reads at 0. An axis where the
// data is longer than the indices is read at 0 too (a loop indexes every operand axis it names
// over its whole extent): the bound keeps one element per index, its position there unknown.
AffineMap routed_axis_map(const Tensor& data, const std::vector<std::int64_t>& indices, int axis) {
  const int rank = static_cast<int>(data.rank());
  std::vector<E> xr;
  for (int a = 0; a < rank; ++a) {
    const auto k = static_cast<std::size_t>(a);
    xr.push_back(a == axis || data.shape[k] != indices[k] ? E::constant(0) : E::dim(a));
  }
  return AffineMap(rank, xr);
}

// Every indices axis must fit in the data's (the other axes are read at the same position).
void check_indices(const OnnxNodeView& v, const Tensor& data, const OnnxValue& indices, int axis) {
  if (indices.shape.size() != data.rank()) v.fail("indices must have the data's rank " + std::to_string(data.rank()), indices.name);
  for (std::size_t a = 0; a < data.rank(); ++a)
    if (static_cast<int>(a) != axis && indices.shape[a] > data.shape[a])
      v.fail("indices axis " + std::to_string(a) + " (" + std::to_string(indices.shape[a]) + ") exceeds the data's (" +
                 std::to_string(data.shape[a]) + ")",
             indices.name);
}

std::vector<Node> parse_gather_elements(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const int r = static_cast<int>(X->rank());
  const int axis = normalize_axis(v, v.attr_int("axis", 0), X->rank());
  check_indices(v, *X, v.inputs[1], axis);
  check_output_shape(v, *Y, v.inputs[1].shape, "the indices' shape");
  const auto bound = routed_axis_map(*X, v.inputs[1].shape, axis);
  auto node = make_computation(v.name, "GatherElements", {X}, {Y}, {bound, AffineMap::identity(r)});
  node.access_overrides = {routed_by(bound, v.inputs[1].name), std::nullopt};
  validate(node);
  return {std::move(node)};
}

std::vector<Node> parse_scatter_elements(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  auto data = input_tensor(v, ctx, 0);
  auto updates = input_tensor(v, ctx, 2);
  auto Y = output_tensor(v, ctx, 0);
  const int r = static_cast<int>(data->rank());
  const int axis = normalize_axis(v, v.attr_int("axis", 0), data->rank());
  check_indices(v, *data, v.inputs[1], axis);
  if (updates->shape != v.inputs[1].shape) v.fail("updates must have the indices' shape", updates->name);
  check_output_shape(v, *Y, data->shape, "the data's shape");
  const auto bound = routed_axis_map(*data, v.inputs[1].shape, axis);
  auto node = make_computation(v.name, "ScatterElements", {data, updates}, {Y}, {bound, AffineMap::identity(r), bound});
  node.access_overrides = {routed_by(bound, v.inputs[1].name), std::nullopt, routed_by(bound, v.inputs[1].name)};
  validate(node);
  return {std::move(node)};
}

// TensorScatter (opset 24): a KV-cache write of update (B, ..., S, D) into past_cache (B, ...,
// max_S, D) along `axis` (default -2) at each batch row's write_indices (0 without them), linear or
// circular: loops over the update's axes, the cache read and written at the routed position
// (routed by write_indices; the affine offset 0 when they are absent).
std::vector<Node> parse_tensor_scatter(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto cache = input_tensor(v, ctx, 0), update = input_tensor(v, ctx, 1);
  auto Y = output_tensor(v, ctx, 0);
  const int r = static_cast<int>(cache->rank());
  if (r < 2 || update->rank() != cache->rank()) v.fail("update must have the cache's rank (>= 2)", update->name);
  const int axis = normalize_axis(v, v.attr_int("axis", -2), cache->rank());
  if (axis == 0) v.fail("the sequence axis cannot be the batch axis 0");
  for (int a = 0; a < r; ++a) {
    const auto k = static_cast<std::size_t>(a);
    if (a == axis ? update->shape[k] > cache->shape[k] : update->shape[k] != cache->shape[k])
      v.fail("update must match the cache except along the sequence axis, where it may not be longer", update->name);
  }
  check_output_shape(v, *Y, cache->shape, "the cache's shape");
  const bool routed = has_input(v, 2);
  std::vector<E> cr;
  for (int a = 0; a < r; ++a) cr.push_back(a == axis && routed ? E::constant(0) : E::dim(a));
  const AffineMap bound(r, cr);
  auto node = make_computation(v.name, "TensorScatter", {cache, update}, {Y}, {bound, AffineMap::identity(r), bound});
  if (routed) node.access_overrides = {routed_by(bound, v.inputs[2].name), std::nullopt, routed_by(bound, v.inputs[2].name)};
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_element_index_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("GatherElements", parse_gather_elements);
  out.emplace_back("ScatterElements", parse_scatter_elements);
  out.emplace_back("Scatter", parse_scatter_elements);  // its name before opset 11
  out.emplace_back("TensorScatter", parse_tensor_scatter);
}

}  // namespace stream::onnx_frontend
