#include "stream/ir/iteration_space.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "stream/error.hpp"

namespace stream {

std::string_view name(IteratorKind k) {
  static constexpr std::array<std::string_view, 3> names{"parallel", "reduction", "sequential"};
  return names[static_cast<std::size_t>(k)];
}

namespace {

const std::unordered_set<std::string>& data_dependent_types() {
  static const std::unordered_set<std::string> types{"Gather", "Scatter", "MoEDispatch", "MoECombine"};
  return types;
}

}  // namespace

AccessRelation access_relation(const Node& node, std::size_t i) {
  if (i >= node.num_operands()) fail_node(node.name, "", "operand index " + std::to_string(i) + " out of range");
  if (i < node.access_overrides.size() && node.access_overrides[i]) return *node.access_overrides[i];
  AccessRelation r;
  if (i < node.operand_mapping.size()) r.pieces = {node.operand_mapping[i]};
  if (i == 0 && data_dependent_types().count(node.type) != 0 && !node.inputs.empty()) {
    r.kind = AccessKind::DataDependent;
    r.index_tensor = node.inputs.size() >= 2 ? node.inputs.back()->name : "";
  } else if (!r.pieces.empty() && !r.pieces.front().is_linear()) {
    r.kind = AccessKind::PiecewiseAffine;
  }
  return r;
}

namespace {

// Sizes from the axes that a bare dim indexes. Outputs first: a Slice's loop has the slice's
// extent, not its source's (spec §1.6 [REC]). 0 where no such axis exists.
std::vector<std::int64_t> sizes_from_bare_axes(const Node& node) {
  const auto dims = static_cast<std::size_t>(node.num_dims());
  std::vector<std::int64_t> size(dims, 0);
  std::vector<std::size_t> source(dims, 0);  // operand that set the size
  std::vector<std::size_t> order;
  for (std::size_t i = node.inputs.size(); i < node.num_operands(); ++i) order.push_back(i);
  for (std::size_t i = 0; i < node.inputs.size(); ++i) order.push_back(i);
  for (std::size_t i : order) {
    const auto& t = *node.operand(i);
    const auto& map = node.operand_mapping[i];
    // A data-dependent or a masked (piecewise, e.g. Concat/Pad) input covers only part of the loop.
    const auto access = access_relation(node, i).kind;
    const bool data_dependent = access == AccessKind::DataDependent ||
                                (access == AccessKind::PiecewiseAffine && !node.is_output_operand(i));
    for (std::size_t axis = 0; axis < map.num_results(); ++axis) {
      const int d = map.result(axis).bare_dim();
      if (d < 0) continue;
      const auto extent = t.shape[axis];
      auto& s = size[static_cast<std::size_t>(d)];
      if (s == 0) {
        s = extent;
        source[static_cast<std::size_t>(d)] = i;
        continue;
      }
      if (s == extent || data_dependent) continue;
      // An input may be larger than the loop (a sub-range read); anything else contradicts.
      if (!node.is_output_operand(i) && extent > s) continue;
      fail_node(node.name, t.name,
                "axis " + std::to_string(axis) + " has extent " + std::to_string(extent) + " but loop " +
                    node.dim_name(d) + " has size " + std::to_string(s) + " from tensor '" +
                    node.operand(source[static_cast<std::size_t>(d)])->name + "'");
    }
  }
  return size;
}

// Legacy inference for hand-built windowed nodes without window_extents (spec §1.6 step 2): the
// largest size of dim d that keeps an axis c*d + (other dims, known) + const inside its extent.
std::int64_t inferred_window_size(const Node& node, int d, const std::vector<std::int64_t>& size) {
  for (std::size_t i = 0; i < node.num_operands(); ++i) {
    const auto& map = node.operand_mapping[i];
    for (std::size_t axis = 0; axis < map.num_results(); ++axis) {
      auto f = map.result(axis).linear();
      if (!f || f->coeff(d) == 0 || f->coeff(d) < 0) continue;
      std::int64_t other_max = 0;
      bool known = true;
      for (int o = 0; o < static_cast<int>(f->coeffs.size()) && known; ++o) {
        if (o == d || f->coeff(o) == 0) continue;
        known = size[static_cast<std::size_t>(o)] != 0;
        other_max += std::max<std::int64_t>(0, f->coeff(o) * (size[static_cast<std::size_t>(o)] - 1));
      }
      if (!known) continue;
      const auto inferred = (node.operand(i)->shape[axis] - 1 - f->constant - other_max) / f->coeff(d) + 1;
      if (inferred >= 1) return inferred;
    }
  }
  return 0;
}

// Every output element a loop point writes must exist.
void check_outputs_in_bounds(const Node& node, const std::vector<std::int64_t>& size) {
  for (std::size_t i = node.inputs.size(); i < node.num_operands(); ++i) {
    const auto& t = *node.operand(i);
    const auto ranges = node.operand_mapping[i].ranges(size);
    for (std::size_t axis = 0; axis < ranges.size(); ++axis)
      if (ranges[axis].lo < 0 || ranges[axis].hi >= t.shape[axis])
        fail_node(node.name, t.name,
                  "output axis " + std::to_string(axis) + " is written at indices [" + std::to_string(ranges[axis].lo) +
                      ", " + std::to_string(ranges[axis].hi) + "] outside its extent " + std::to_string(t.shape[axis]));
  }
}

}  // namespace

std::vector<std::int64_t> loop_sizes(const Node& node) {
  if (!node.has_iteration_space()) return {};
  std::vector<std::int64_t> size = sizes_from_bare_axes(node);
  for (const auto& [d, extent] : node.window_extents)
    if (size[static_cast<std::size_t>(d)] == 0) size[static_cast<std::size_t>(d)] = extent;
  for (int d = 0; d < node.num_dims(); ++d)
    if (size[static_cast<std::size_t>(d)] == 0) size[static_cast<std::size_t>(d)] = inferred_window_size(node, d, size);
  std::string missing;
  for (int d = 0; d < node.num_dims(); ++d)
    if (size[static_cast<std::size_t>(d)] == 0) missing += (missing.empty() ? "" : ", ") + node.dim_name(d);
  if (!missing.empty())
    fail_node(node.name, "",
              "cannot determine the size of loop(s) " + missing +
                  ": no operand axis indexes them alone and the node gives no window_extents");
  check_outputs_in_bounds(node, size);
  return size;
}

std::vector<IteratorKind> iterator_kinds(const Node& node) {
  const int dims = node.num_dims();
  std::vector<IteratorKind> kinds(static_cast<std::size_t>(dims), IteratorKind::Reduction);
  if (!node.has_iteration_space()) return kinds;
  const auto& last_out = node.operand_mapping.back();
  for (int d = 0; d < dims; ++d)
    if (last_out.uses_dim(d)) kinds[static_cast<std::size_t>(d)] = IteratorKind::Parallel;

  // SEQUENTIAL: a state input (shaped like an output, or flagged in state_inputs) read at `d + c`,
  // c != 0, with d written by the outputs. Requiring the state shape keeps a Slice with an offset parallel (spec §1.8 [REC]).
  for (std::size_t i = 0; i < node.inputs.size(); ++i) {
    const auto& in = *node.inputs[i];
    const bool flagged = std::find(node.state_inputs.begin(), node.state_inputs.end(), i) != node.state_inputs.end();
    const bool state = flagged || std::any_of(node.outputs.begin(), node.outputs.end(),
                                              [&](const TensorPtr& o) { return o->shape == in.shape; });
    if (!state) continue;
    for (const auto& r : node.operand_mapping[i].results()) {
      auto f = r.linear();
      if (!f || f->constant == 0 || f->num_terms() != 1) continue;
      for (int d = 0; d < static_cast<int>(f->coeffs.size()); ++d) {
        if (f->coeff(d) != 1) continue;
        for (std::size_t o = node.inputs.size(); o < node.num_operands(); ++o)
          if (node.operand_mapping[o].uses_dim(d)) kinds[static_cast<std::size_t>(d)] = IteratorKind::Sequential;
      }
    }
  }
  return kinds;
}

std::vector<LoopDim> loop_dims(const Node& node) {
  const auto sizes = loop_sizes(node);
  const auto kinds = iterator_kinds(node);
  std::vector<LoopDim> out;
  out.reserve(sizes.size());
  for (std::size_t d = 0; d < sizes.size(); ++d)
    out.push_back(LoopDim{node.dim_name(static_cast<int>(d)), sizes[d], kinds[d]});
  return out;
}

}  // namespace stream
