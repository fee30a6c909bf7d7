#include "library.hpp"

#include <stream/error.hpp>

namespace stream::blocks {

namespace {
void check_axis(const TensorPtr& x, int axis, const std::string& name) {
  if (axis < 0 || axis >= static_cast<int>(x->rank()))
    throw Error("axis " + std::to_string(axis) + " out of range for tensor '" + x->name + "' of rank " +
                    std::to_string(x->rank()),
                Location{.node = name, .operand = x->name});
}
}  // namespace

Node slice_node(const TensorPtr& x, int axis, std::int64_t start, std::int64_t length, const std::string& name) {
  check_axis(x, axis, name);
  const auto extent = x->shape[static_cast<std::size_t>(axis)];
  if (start < 0 || length <= 0 || start + length > extent)
    throw Error("slice [" + std::to_string(start) + ", " + std::to_string(start + length) + ") outside axis " +
                    std::to_string(axis) + " of extent " + std::to_string(extent),
                Location{.node = name, .operand = x->name});
  std::vector<std::int64_t> shape = x->shape;
  shape[static_cast<std::size_t>(axis)] = length;
  const int rank = static_cast<int>(x->rank());
  std::vector<AffineExpr> in;
  for (int d = 0; d < rank; ++d) in.push_back(d == axis ? AffineExpr::dim(d) + start : AffineExpr::dim(d));
  return make_computation(name, "Slice", {x}, {make_tensor(name + "_out", x->dtype, shape)},
                          {AffineMap(rank, std::move(in)), AffineMap::identity(rank)});
}

Node gather_node(const TensorPtr& x, int axis, std::int64_t num_indices, const std::string& name) {
  check_axis(x, axis, name);
  if (num_indices <= 0) throw Error("gather needs at least one index", Location{.node = name, .operand = x->name});
  std::vector<std::int64_t> shape = x->shape;
  shape[static_cast<std::size_t>(axis)] = num_indices;
  const int rank = static_cast<int>(x->rank());
  std::vector<int> data_dims, out_dims;
  for (int d = 0; d < rank; ++d) {
    data_dims.push_back(d == axis ? rank : d);
    out_dims.push_back(d);
  }
  Node n = make_computation(name, "Gather", {x}, {make_tensor(name + "_out", x->dtype, shape)},
                            {AffineMap::of_dims(rank + 1, data_dims), AffineMap::of_dims(rank + 1, out_dims)});
  return n;
}

AccessRelation sparse_attention_key_access(std::int64_t window, std::int64_t dilation) {
  if (window <= 0 || dilation <= 0)
    throw Error("sparse attention needs a positive window and dilation, got " + std::to_string(window) + " and " +
                std::to_string(dilation));
  const AffineExpr i = AffineExpr::dim(0), w = AffineExpr::dim(1);
  AccessRelation rel;
  rel.kind = AccessKind::PiecewiseAffine;
  rel.pieces = {AffineMap(2, {i - window + w}), AffineMap(2, {i - w * dilation})};
  return rel;
}

}  // namespace stream::blocks
