#include "stream/ir/concat_layout.hpp"

#include <utility>

#include "stream/error.hpp"
#include "stream/ir/checked.hpp"

namespace stream {
namespace {

using E = AffineExpr;

[[noreturn]] void fail_operand(const Tensor& t, const std::string& message) {
  throw Error(message, Location{.operand = t.name});
}

// An input must equal the output at every axis but the concatenation axis.
void check_input_shape(const Tensor& in, const Tensor& out, int axis) {
  if (in.rank() != out.rank())
    fail_operand(in, "input rank " + std::to_string(in.rank()) + " differs from the output rank " + std::to_string(out.rank()));
  for (std::size_t a = 0; a < in.rank(); ++a)
    if (static_cast<int>(a) != axis && in.shape[a] != out.shape[a])
      fail_operand(in, "axis " + std::to_string(a) + " has extent " + std::to_string(in.shape[a]) + " but the output's has " +
                           std::to_string(out.shape[a]) + " (inputs may differ only along the concatenation axis " +
                           std::to_string(axis) + ")");
}

AccessRelation masked(const AffineMap& m) {
  AccessRelation r;
  r.kind = AccessKind::PiecewiseAffine;
  r.pieces = {m};
  return r;
}

}  // namespace

ConcatLayout concat_layout(const std::vector<TensorPtr>& inputs, const Tensor& output, int axis) {
  const int r = static_cast<int>(output.rank());
  if (inputs.empty()) fail_operand(output, "a concatenation needs at least one input");
  if (axis < 0 || axis >= r)
    fail_operand(output, "concatenation axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  ConcatLayout l;
  std::int64_t offset = 0;
  for (const auto& t : inputs) {
    check_input_shape(*t, output, axis);
    std::vector<E> xr;
    for (int a = 0; a < r; ++a) xr.push_back(a == axis ? E::dim(a) - offset : E::dim(a));
    const auto extent = t->shape[static_cast<std::size_t>(axis)];
    offset = checked_add(offset, extent, [&] { return "the concatenation offset of '" + t->name + "'"; });
    l.maps.emplace_back(r, std::move(xr));
    l.access_overrides.emplace_back(masked(l.maps.back()));
  }
  const auto total = output.shape[static_cast<std::size_t>(axis)];
  if (offset != total)
    fail_operand(output, "input extents along axis " + std::to_string(axis) + " add up to " + std::to_string(offset) +
                             ", not to the output extent " + std::to_string(total));
  l.maps.push_back(AffineMap::identity(r));
  l.access_overrides.emplace_back(std::nullopt);
  return l;
}

Node concat_node(std::string name, std::vector<TensorPtr> inputs, const TensorPtr& output, int axis) {
  auto l = concat_layout(inputs, *output, axis);
  auto node = make_computation(std::move(name), "Concat", std::move(inputs), {output}, std::move(l.maps));
  node.access_overrides = std::move(l.access_overrides);
  validate(node);
  return node;
}

}  // namespace stream
