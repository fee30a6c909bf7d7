// ScatterND (a KV-cache update: data, indices, updates -> data with the updates written at the
// indexed positions): one node over the updates' axes, the index batch u0.. then the slice axes
// s.. (ONNX: updates.shape = indices.shape[:-1] + data.shape[k:], k = indices.shape[-1]). The
// updates are read affinely; data and output are accessed at positions the index values choose, a
// data-dependent access routed by the indices whose bound map reads the k routed axes at 0 (the
// footprint, one data row per update, is exact; its position is not known). The int64 indices are
// not an operand. Fusion analysis cuts before and after the node.
#include <set>

#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<Node> parse_scatter_nd(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  // Every reduction (opset 16's add and mul, opset 18's max and min) reads the indexed data row and
  // writes it back combined with the update: the same accesses as a plain write plus the read of
  // data the node makes anyway.
  static const std::set<std::string> reductions{"none", "add", "mul", "max", "min"};
  const auto reduction = v.attr_string("reduction", "none");
  if (reductions.count(reduction) == 0)
    v.fail("reduction '" + reduction + "' is not supported (none, add, mul, max or min)");
  auto data = input_tensor(v, ctx, 0);
  auto updates = input_tensor(v, ctx, 2);
  auto Y = output_tensor(v, ctx, 0);
  const auto& indices = v.inputs[1];
  if (indices.shape.empty()) v.fail("indices must have rank >= 1", indices.name);
  const auto k = indices.shape.back();
  const auto r = static_cast<std::int64_t>(data->rank());
  if (k < 1 || k > r) v.fail("indices.shape[-1] = " + std::to_string(k) + " must be in [1, rank(data) = " + std::to_string(r) + "]", indices.name);
  std::vector<std::int64_t> expected(indices.shape.begin(), indices.shape.end() - 1);
  expected.insert(expected.end(), data->shape.begin() + k, data->shape.end());
  if (updates->shape != expected) v.fail("updates shape must be indices.shape[:-1] + data.shape[k:]", updates->name);
  if (Y->shape != data->shape) v.fail("output shape differs from the data shape", Y->name);
  if (updates->dtype != data->dtype) v.fail("updates and data have different element types", updates->name);
  const int batch = static_cast<int>(indices.shape.size()) - 1;
  const int dims = static_cast<int>(updates->rank());
  std::vector<E> routed_axes;
  for (std::int64_t a = 0; a < r; ++a) routed_axes.push_back(a < k ? E::constant(0) : E::dim(batch + static_cast<int>(a - k)));
  const AffineMap bound(dims, routed_axes);
  auto node = make_computation(v.name, "ScatterND", {data, updates}, {Y}, {bound, AffineMap::identity(dims), bound});
  std::vector<std::string> names = numbered_names("u", static_cast<std::size_t>(batch));
  for (std::int64_t a = k; a < r; ++a) names.push_back("s" + std::to_string(a));
  node.dim_names = names;
  node.access_overrides = {routed_by(bound, indices.name), std::nullopt, routed_by(bound, indices.name)};
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_scatter_parsers(std::vector<ParserEntry>& out) { out.emplace_back("ScatterND", parse_scatter_nd); }

}  // namespace stream::onnx_frontend
