// GatherND: slices of data picked by the last axis (k entries) of an int64 indices tensor, after
// batch_dims leading axes shared by both. Output: indices.shape[:-1] + data.shape[batch_dims+k:].
// Loops are the output's axes; the data is read at the shared batch axes, at 0 on the k indexed
// axes (a data-dependent read routed by the indices: one slice per index tuple, its position
// unknown) and at the slice's axes, as ScatterND writes. The indices are not an operand.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<Node> parse_gather_nd(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const auto& indices = v.inputs[1];
  const auto batch = v.attr_int("batch_dims", 0);
  const auto q = static_cast<std::int64_t>(indices.shape.size()), r = static_cast<std::int64_t>(X->rank());
  if (q < 1) v.fail("indices must have rank >= 1", indices.name);
  const auto k = indices.shape.back();
  if (batch < 0 || batch >= q || k < 1 || batch + k > r)
    v.fail("batch_dims + indices.shape[-1] must be in [1, rank(data) = " + std::to_string(r) + "]", indices.name);
  std::vector<std::int64_t> expected(indices.shape.begin(), indices.shape.end() - 1);
  expected.insert(expected.end(), X->shape.begin() + batch + k, X->shape.end());
  check_output_shape(v, *Y, expected, "indices.shape[:-1] + data.shape[batch_dims + k:]");
  const int dims = static_cast<int>(Y->rank()), tuples = static_cast<int>(q - 1);
  std::vector<E> xr;
  for (std::int64_t a = 0; a < r; ++a) {
    if (a < batch) xr.push_back(E::dim(static_cast<int>(a)));
    else if (a < batch + k) xr.push_back(E::constant(0));
    else xr.push_back(E::dim(tuples + static_cast<int>(a - batch - k)));
  }
  const AffineMap bound(dims, xr);
  auto node = make_computation(v.name, "GatherND", {X}, {Y}, {bound, AffineMap::identity(dims)});
  node.access_overrides = {routed_by(bound, indices.name), std::nullopt};
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_gather_nd_parsers(std::vector<ParserEntry>& out) { out.emplace_back("GatherND", parse_gather_nd); }

}  // namespace stream::onnx_frontend
