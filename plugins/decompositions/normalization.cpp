// Decompositions of normalization nodes (workload-spec §5.1, plus LayerNormalization and
// RMSNormalization which the reference leaves undecomposed).
//
// A normalization node iterates over its output's shape; it reads and writes with identity maps
// unless layout folding changed them (a reshape folded into it: Swin's masked scores, read as
// [1, windows, ...] by a Softmax over [windows, ...]), so the sub-operators read x and write y
// through the node's own maps and iterate over its loops. What it normalises over is its
// reduction_axes (loop positions). Every decomposition below is "reduce over those axes into a
// statistics tensor of the kept loops, then broadcast the statistic back over every loop": the
// `drop` map (kept dims only) is both the reductions' output map and the broadcasts' statistic
// read, so the reduced positions are the REDUCTION dims of the reduce sub-operators and PARALLEL
// everywhere else.
#include <algorithm>

#include <stream/ir/iteration_space.hpp>

#include "decompositions.hpp"
#include "subgraph.hpp"

namespace stream::decompositions {

namespace {

struct Norm {
  TensorPtr x, y;
  std::vector<std::int64_t> loops;  ///< the node's iteration space: the intermediates' shape
  std::vector<int> axes;
  std::vector<std::int64_t> reduced_shape;
  AffineMap x_map, y_map;  ///< how the node reads x and writes y
  AffineMap id, drop, id_reduced;

  /// The map a sub-operator writes `t` with: the node's for y, identity for an intermediate.
  [[nodiscard]] const AffineMap& out_map(const TensorPtr& t) const { return t == y ? y_map : id; }
};

/// Checks that the node's loops visit every element of `t` exactly once through `m` (a
/// normalization reads x and writes y element by element, whatever their axes).
void require_whole(const Subgraph& sg, const Norm& nm, const AffineMap& m, const Tensor& t) {
  const auto ranges = m.ranges(nm.loops);
  bool whole = ranges.size() == t.rank();
  for (std::size_t i = 0; whole && i < ranges.size(); ++i) whole = ranges[i] == Interval{0, t.shape[i] - 1};
  std::int64_t points = 1;
  for (auto e : nm.loops) points *= e;
  if (!whole || points != t.size_elements())
    sg.fail("tensor '" + t.name + "' is not visited element by element by the node's loops (input and output must hold the same elements)");
}

/// Checks the node is a normalization of x into y with valid axes and at most `max_inputs` inputs
/// (the extra ones being broadcastable affine parameters such as a scale and a bias).
Norm check(const Subgraph& sg, std::size_t max_inputs) {
  const Node& n = sg.origin();
  if (n.inputs.empty() || n.inputs.size() > max_inputs)
    sg.fail("expected 1" + std::string(max_inputs > 1 ? " to " + std::to_string(max_inputs) : "") +
            " inputs, got " + std::to_string(n.inputs.size()));
  if (n.outputs.size() != 1) sg.fail("expected exactly 1 output, got " + std::to_string(n.outputs.size()));
  Norm r;
  r.x = n.inputs[0];
  r.y = n.outputs[0];
  for (const auto& l : loop_dims(n)) r.loops.push_back(l.size);
  const int rank = static_cast<int>(r.loops.size());
  r.axes = n.reduction_axes;
  std::sort(r.axes.begin(), r.axes.end());
  if (r.axes.empty()) sg.fail("the node has no reduction_axes");
  if (std::adjacent_find(r.axes.begin(), r.axes.end()) != r.axes.end()) sg.fail("repeated reduction axis");
  if (r.axes.front() < 0 || r.axes.back() >= rank) sg.fail("reduction axis out of range for rank " + std::to_string(rank));
  r.x_map = n.operand_mapping[0];
  r.y_map = n.operand_mapping[n.inputs.size()];
  require_whole(sg, r, r.x_map, *r.x);
  require_whole(sg, r, r.y_map, *r.y);
  r.reduced_shape = drop_axes(r.loops, r.axes);
  r.id = AffineMap::identity(rank);
  r.drop = drop_axes(rank, r.axes);
  r.id_reduced = AffineMap::identity(static_cast<int>(r.reduced_shape.size()));
  return r;
}

/// The tensor a normalised value goes to: the node's output if nothing follows, else a new one.
TensorPtr stage_output(Subgraph& sg, const Norm& nm, bool last, const std::string& role) {
  return last ? nm.y : sg.tensor(role, nm.x->dtype, nm.loops);
}

/// Optional trailing scale (input 1, Mul) and bias (input 2, Add) of LayerNormalization/RMSNorm,
/// each read through the node's own map for it.
void affine_tail(Subgraph& sg, const Norm& nm, TensorPtr value) {
  const Node& n = sg.origin();
  if (n.inputs.size() >= 2) {
    const bool last = n.inputs.size() == 2;
    TensorPtr out = stage_output(sg, nm, last, "scaled");
    sg.op("scale", "Mul", {value, n.inputs[1]}, {out}, {nm.id, n.operand_mapping[1], nm.out_map(out)});
    value = out;
  }
  if (n.inputs.size() >= 3)
    sg.op("bias", "Add", {value, n.inputs[2]}, {nm.y}, {nm.id, n.operand_mapping[2], nm.y_map});
}

std::string out_name(const Node& n) { return n.name + "_out"; }

}  // namespace

Workload decompose_softmax(const Node& node) {
  Subgraph sg(node);
  const Norm nm = check(sg, 1);
  const DType dt = nm.x->dtype;
  TensorPtr mx = sg.tensor("max", dt, nm.reduced_shape);
  sg.op("max", "ReduceMax", {nm.x}, {mx}, {nm.x_map, nm.drop});
  // exp(x - max): the subtraction is fused into the Exp, which reads the broadcast max.
  TensorPtr ex = sg.tensor("exp", dt, nm.loops);
  sg.op("exp", "Exp", {nm.x, mx}, {ex}, {nm.x_map, nm.drop, nm.id});
  TensorPtr sum = sg.tensor("sum", dt, nm.reduced_shape);
  sg.op("sum", "ReduceSum", {ex}, {sum}, {nm.id, nm.drop});
  sg.op("div", "Div", {ex, sum}, {nm.y}, {nm.id, nm.drop, nm.y_map});
  return std::move(sg).build({out_name(node)});
}

Workload decompose_lp_normalization(const Node& node) {
  Subgraph sg(node);
  const Norm nm = check(sg, 1);
  const DType dt = nm.x->dtype;
  // Only p = 2 is modelled (the reference's choice); the access pattern is the same for any p.
  TensorPtr sumsq = sg.tensor("sumsq", dt, nm.reduced_shape);
  sg.op("sumsq", "ReduceSumSquare", {nm.x}, {sumsq}, {nm.x_map, nm.drop});
  TensorPtr norm = sg.tensor("norm", dt, nm.reduced_shape);
  sg.op("sqrt", "Sqrt", {sumsq}, {norm}, {nm.id_reduced, nm.id_reduced});
  sg.op("div", "Div", {nm.x, norm}, {nm.y}, {nm.x_map, nm.drop, nm.y_map});
  return std::move(sg).build({out_name(node)});
}

Workload decompose_layer_normalization(const Node& node) {
  Subgraph sg(node);
  const Norm nm = check(sg, 3);
  const DType dt = nm.x->dtype;
  TensorPtr mean = sg.tensor("mean", dt, nm.reduced_shape);
  sg.op("mean", "ReduceMean", {nm.x}, {mean}, {nm.x_map, nm.drop});
  TensorPtr centered = sg.tensor("centered", dt, nm.loops);
  sg.op("center", "Sub", {nm.x, mean}, {centered}, {nm.x_map, nm.drop, nm.id});
  // The variance is the mean of the squared centred values; the 1/n is a constant factor the
  // affine model does not distinguish from a plain sum of squares.
  TensorPtr var = sg.tensor("var", dt, nm.reduced_shape);
  sg.op("var", "ReduceSumSquare", {centered}, {var}, {nm.id, nm.drop});
  TensorPtr stddev = sg.tensor("std", dt, nm.reduced_shape);
  sg.op("sqrt", "Sqrt", {var}, {stddev}, {nm.id_reduced, nm.id_reduced});
  TensorPtr normed = stage_output(sg, nm, node.inputs.size() == 1, "normed");
  sg.op("div", "Div", {centered, stddev}, {normed}, {nm.id, nm.drop, nm.out_map(normed)});
  affine_tail(sg, nm, normed);
  return std::move(sg).build({out_name(node)});
}

Workload decompose_rms_normalization(const Node& node) {
  Subgraph sg(node);
  const Norm nm = check(sg, 2);
  const DType dt = nm.x->dtype;
  TensorPtr sumsq = sg.tensor("sumsq", dt, nm.reduced_shape);
  sg.op("sumsq", "ReduceSumSquare", {nm.x}, {sumsq}, {nm.x_map, nm.drop});
  TensorPtr rms = sg.tensor("rms", dt, nm.reduced_shape);
  sg.op("sqrt", "Sqrt", {sumsq}, {rms}, {nm.id_reduced, nm.id_reduced});
  TensorPtr normed = stage_output(sg, nm, node.inputs.size() == 1, "normed");
  sg.op("div", "Div", {nm.x, rms}, {normed}, {nm.x_map, nm.drop, nm.out_map(normed)});
  affine_tail(sg, nm, normed);
  return std::move(sg).build({out_name(node)});
}

}  // namespace stream::decompositions
