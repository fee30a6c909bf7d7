// Data movement and reductions: Slice, Gather (data-dependent), Concat, Pad, Expand, Split, and
// ReduceMean/Sum/Max/Min/Prod/L1/L2/SumSquare/LogSumExp. Output extents always come from shape
// inference; only the constant offsets (Slice starts, Pad pads) are read from constant inputs.
#include <algorithm>
#include <numeric>

#include <stream/ir/concat_layout.hpp>
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<std::int64_t> const_ints(const OnnxNodeView& v, std::size_t i, const std::string& what) {
  if (!has_input(v, i)) return {};
  if (!v.inputs[i].int_values) v.fail(what + " must be a constant integer tensor", v.inputs[i].name);
  return *v.inputs[i].int_values;
}

std::vector<Node> parse_slice(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const auto r = X->rank();
  std::vector<std::int64_t> starts, axes, steps;
  if (opset_of(v) > 0 && opset_of(v) < 10) {
    starts = v.attr_ints("starts");
    axes = v.attr_ints("axes");
  } else {
    starts = const_ints(v, 1, "starts");
    axes = const_ints(v, 3, "axes");
    steps = const_ints(v, 4, "steps");
  }
  if (axes.empty()) { axes.resize(starts.size()); std::iota(axes.begin(), axes.end(), 0); }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size()) v.fail("starts, axes and steps differ in length");
  std::vector<E> xr;
  for (std::size_t a = 0; a < r; ++a) xr.push_back(E::dim(static_cast<int>(a)));
  for (std::size_t j = 0; j < starts.size(); ++j) {
    const int a = normalize_axis(v, axes[j], r);
    const auto dim = X->shape[static_cast<std::size_t>(a)];
    auto s = starts[j];
    if (s < 0) s += dim;
    const auto step = steps[j];
    if (step == 0) v.fail("step 0");
    s = step > 0 ? std::clamp<std::int64_t>(s, 0, dim) : std::clamp<std::int64_t>(s, 0, dim - 1);
    xr[static_cast<std::size_t>(a)] = E::dim(a) * step + s;
  }
  const int dims = static_cast<int>(r);
  auto node = make_computation(v.name, "Slice", {X}, {Y}, {AffineMap(dims, xr), AffineMap::identity(dims)});
  return {std::move(node)};
}

std::vector<Node> parse_gather(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const auto r = X->rank();
  const int axis = normalize_axis(v, v.attr_int("axis", 0), r);
  const auto q = v.inputs[1].shape.size();
  if (Y->rank() != r + q - 1) v.fail("output rank does not match data rank + index rank - 1", Y->name);
  // Constant indices are known: one outside [-extent, extent) reads past the data (ONNX leaves it
  // undefined), so it is rejected rather than costed as a read of a row that does not exist.
  if (const auto& known = v.inputs[1].int_values) {
    const auto extent = X->shape[static_cast<std::size_t>(axis)];
    for (std::size_t j = 0; j < known->size(); ++j)
      if ((*known)[j] < -extent || (*known)[j] >= extent)
        v.fail("index " + std::to_string((*known)[j]) + " (entry " + std::to_string(j) + " of '" + v.inputs[1].name +
                   "') is outside axis " + std::to_string(axis) + " of '" + X->name + "', which has extent " +
                   std::to_string(extent) + " (valid: " + std::to_string(-extent) + ".." + std::to_string(extent - 1) + ")",
               v.inputs[1].name);
  }
  // Dims: the output positions, then the source position `src` along the gathered axis (which only
  // the data indexes: a data-dependent reduction-like loop, as the reference).
  const int ry = static_cast<int>(Y->rank()), src = ry;
  std::vector<E> xr;
  for (int a = 0; a < static_cast<int>(r); ++a) {
    if (a < axis) xr.push_back(E::dim(a));
    else if (a == axis) xr.push_back(E::dim(src));
    else xr.push_back(E::dim(a + static_cast<int>(q) - 1));
  }
  std::vector<E> yr;
  for (int a = 0; a < ry; ++a) yr.push_back(E::dim(a));
  return {make_computation(v.name, "Gather", {X}, {Y}, {AffineMap(ry + 1, xr), AffineMap(ry + 1, yr)})};
}

std::vector<Node> parse_concat(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto Y = output_tensor(v, ctx, 0);
  const int axis = normalize_axis(v, v.attr_int("axis", 0), Y->rank());
  std::vector<TensorPtr> ins;
  for (const auto& in : v.inputs)
    if (in.present()) ins.push_back(ctx.tensor(in.name));
  return {concat_node(v.name, std::move(ins), Y, axis)};
}

std::vector<Node> parse_pad(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const int r = static_cast<int>(X->rank());
  std::vector<std::int64_t> pads = opset_of(v) > 0 && opset_of(v) < 11 ? v.attr_ints("pads") : const_ints(v, 1, "pads");
  std::vector<std::int64_t> axes = has_input(v, 3) ? const_ints(v, 3, "axes") : std::vector<std::int64_t>{};
  if (axes.empty()) { axes.resize(static_cast<std::size_t>(r)); std::iota(axes.begin(), axes.end(), 0); }
  if (pads.size() != 2 * axes.size()) v.fail("pads must have two values per padded axis");
  std::vector<E> xr;
  for (int a = 0; a < r; ++a) xr.push_back(E::dim(a));
  for (std::size_t j = 0; j < axes.size(); ++j) {
    const int a = normalize_axis(v, axes[j], static_cast<std::size_t>(r));
    xr[static_cast<std::size_t>(a)] = E::dim(a) - pads[j];
  }
  auto node = make_computation(v.name, "Pad", {X}, {Y}, {AffineMap(r, xr), AffineMap::identity(r)});
  node.access_overrides = {masked(node.operand_mapping[0]), std::nullopt};
  return {std::move(node)};
}

std::vector<Node> parse_expand(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const int r = static_cast<int>(Y->rank());
  return {make_computation(v.name, "Expand", {X}, {Y}, {broadcast_map(v, *X, Y->shape, r), AffineMap::identity(r)})};
}

// Split: one data-movement node per used output, reading its part of the input.
std::vector<Node> parse_split(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  const int r = static_cast<int>(X->rank());
  const int axis = normalize_axis(v, v.attr_int("axis", 0), X->rank());
  std::vector<Node> out;
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < v.outputs.size(); ++i) {
    // Unused outputs are blank, but their extent still moves the offset: take it from the view.
    const auto& o = v.outputs[i];
    const auto extent = o.shape.size() == X->rank() ? o.shape[static_cast<std::size_t>(axis)] : 0;
    if (o.present()) {
      auto Y = ctx.tensor(o.name);
      std::vector<E> xr;
      for (int a = 0; a < r; ++a) xr.push_back(a == axis ? E::dim(a) + offset : E::dim(a));
      out.push_back(make_computation(v.outputs.size() == 1 ? v.name : v.name + "_" + std::to_string(i), "Split", {X},
                                     {Y}, {AffineMap(r, xr), AffineMap::identity(r)}));
      offset += Y->shape[static_cast<std::size_t>(axis)];
    } else {
      if (extent == 0 && i + 1 < v.outputs.size()) v.fail("the extent of unused output " + std::to_string(i) + " is unknown");
      offset += extent;
    }
  }
  return out;
}

std::vector<Node> parse_reduce(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const int r = static_cast<int>(X->rank());
  const bool keep = v.attr_int("keepdims", 1) != 0;
  std::vector<std::int64_t> axes;
  const bool axes_as_input = v.op_type == "ReduceSum" ? opset_of(v) >= 13 : opset_of(v) >= 18;
  if (axes_as_input || has_input(v, 1)) axes = has_input(v, 1) ? const_ints(v, 1, "axes") : std::vector<std::int64_t>{};
  else axes = v.attr_ints("axes");
  std::vector<bool> reduced(static_cast<std::size_t>(r), false);
  if (axes.empty()) {
    if (v.attr_int("noop_with_empty_axes", 0) == 0) reduced.assign(static_cast<std::size_t>(r), true);
  }
  for (auto a : axes) reduced[static_cast<std::size_t>(normalize_axis(v, a, static_cast<std::size_t>(r)))] = true;
  // Dims: one per input axis; the reduced ones do not index the output (reduction loops).
  std::vector<E> yr;
  for (int a = 0; a < r; ++a) {
    if (!reduced[static_cast<std::size_t>(a)]) yr.push_back(E::dim(a));
    else if (keep) yr.push_back(E::constant(0));
  }
  if (yr.size() != Y->rank()) v.fail("output rank does not match the reduced input", Y->name);
  return {make_computation(v.name, v.op_type, {X}, {Y}, {AffineMap::identity(r), AffineMap(r, yr)})};
}

}  // namespace

void add_movement_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("Slice", parse_slice);
  out.emplace_back("Gather", parse_gather);
  out.emplace_back("Concat", parse_concat);
  out.emplace_back("Pad", parse_pad);
  out.emplace_back("Expand", parse_expand);
  out.emplace_back("Split", parse_split);
  for (const char* op : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                         "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"})
    out.emplace_back(op, parse_reduce);
}

}  // namespace stream::onnx_frontend
