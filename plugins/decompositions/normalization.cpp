// Decompositions of normalization nodes (workload-spec §5.1, plus LayerNormalization and
// RMSNormalization which the reference leaves undecomposed).
//
// A normalization node has identity maps; what it normalises over is its reduction_axes. Every
// decomposition below is "reduce over those axes into a statistics tensor of the kept shape, then
// broadcast the statistic back over the full shape": the `drop` map (kept dims only) is both the
// reductions' output map and the broadcasts' statistic read, so the reduced positions are the
// REDUCTION dims of the reduce sub-operators and PARALLEL everywhere else.
#include <algorithm>

#include "decompositions.hpp"
#include "subgraph.hpp"

namespace stream::decompositions {

namespace {

struct Norm {
  TensorPtr x, y;
  int rank = 0;
  std::vector<int> axes;
  std::vector<std::int64_t> reduced_shape;
  AffineMap id, drop, id_reduced;
};

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
  if (r.x->shape != r.y->shape)
    sg.fail("output '" + r.y->name + "' must have the shape of input '" + r.x->name + "'");
  r.rank = static_cast<int>(r.x->rank());
  r.axes = n.reduction_axes;
  std::sort(r.axes.begin(), r.axes.end());
  if (r.axes.empty()) sg.fail("the node has no reduction_axes");
  if (std::adjacent_find(r.axes.begin(), r.axes.end()) != r.axes.end()) sg.fail("repeated reduction axis");
  if (r.axes.front() < 0 || r.axes.back() >= r.rank)
    sg.fail("reduction axis out of range for rank " + std::to_string(r.rank));
  for (std::size_t i = 1; i < n.inputs.size(); ++i) {
    const auto& p = n.inputs[i]->shape;
    bool ok = p.size() <= r.x->shape.size();
    for (std::size_t j = 0; ok && j < p.size(); ++j) {
      const std::int64_t xe = r.x->shape[r.x->shape.size() - p.size() + j];
      ok = p[j] == 1 || p[j] == xe;
    }
    if (!ok) sg.fail("input '" + n.inputs[i]->name + "' does not broadcast to the shape of '" + r.x->name + "'");
  }
  r.reduced_shape = drop_axes(r.x->shape, r.axes);
  r.id = AffineMap::identity(r.rank);
  r.drop = drop_axes(r.rank, r.axes);
  r.id_reduced = AffineMap::identity(static_cast<int>(r.reduced_shape.size()));
  return r;
}

/// The tensor a normalised value goes to: the node's output if nothing follows, else a new one.
TensorPtr stage_output(Subgraph& sg, const Norm& nm, bool last, const std::string& role) {
  return last ? nm.y : sg.tensor(role, nm.x->dtype, nm.x->shape);
}

/// Optional trailing scale (input 1, Mul) and bias (input 2, Add) of LayerNormalization/RMSNorm.
void affine_tail(Subgraph& sg, const Norm& nm, TensorPtr value) {
  const Node& n = sg.origin();
  if (n.inputs.size() >= 2) {
    const bool last = n.inputs.size() == 2;
    TensorPtr out = stage_output(sg, nm, last, "scaled");
    sg.op("scale", "Mul", {value, n.inputs[1]}, {out}, {nm.id, broadcast_map(nm.x->shape, n.inputs[1]->shape), nm.id});
    value = out;
  }
  if (n.inputs.size() >= 3)
    sg.op("bias", "Add", {value, n.inputs[2]}, {nm.y}, {nm.id, broadcast_map(nm.x->shape, n.inputs[2]->shape), nm.id});
}

std::string out_name(const Node& n) { return n.name + "_out"; }

}  // namespace

Workload decompose_softmax(const Node& node) {
  Subgraph sg(node);
  const Norm nm = check(sg, 1);
  const DType dt = nm.x->dtype;
  TensorPtr mx = sg.tensor("max", dt, nm.reduced_shape);
  sg.op("max", "ReduceMax", {nm.x}, {mx}, {nm.id, nm.drop});
  // exp(x - max): the subtraction is fused into the Exp, which reads the broadcast max.
  TensorPtr ex = sg.tensor("exp", dt, nm.x->shape);
  sg.op("exp", "Exp", {nm.x, mx}, {ex}, {nm.id, nm.drop, nm.id});
  TensorPtr sum = sg.tensor("sum", dt, nm.reduced_shape);
  sg.op("sum", "ReduceSum", {ex}, {sum}, {nm.id, nm.drop});
  sg.op("div", "Div", {ex, sum}, {nm.y}, {nm.id, nm.drop, nm.id});
  return std::move(sg).build({out_name(node)});
}

Workload decompose_lp_normalization(const Node& node) {
  Subgraph sg(node);
  const Norm nm = check(sg, 1);
  const DType dt = nm.x->dtype;
  // Only p = 2 is modelled (the reference's choice); the access pattern is the same for any p.
  TensorPtr sumsq = sg.tensor("sumsq", dt, nm.reduced_shape);
  sg.op("sumsq", "ReduceSumSquare", {nm.x}, {sumsq}, {nm.id, nm.drop});
  TensorPtr norm = sg.tensor("norm", dt, nm.reduced_shape);
  sg.op("sqrt", "Sqrt", {sumsq}, {norm}, {nm.id_reduced, nm.id_reduced});
  sg.op("div", "Div", {nm.x, norm}, {nm.y}, {nm.id, nm.drop, nm.id});
  return std::move(sg).build({out_name(node)});
}

Workload decompose_layer_normalization(const Node& node) {
  Subgraph sg(node);
  const Norm nm = check(sg, 3);
  const DType dt = nm.x->dtype;
  TensorPtr mean = sg.tensor("mean", dt, nm.reduced_shape);
  sg.op("mean", "ReduceMean", {nm.x}, {mean}, {nm.id, nm.drop});
  TensorPtr centered = sg.tensor("centered", dt, nm.x->shape);
  sg.op("center", "Sub", {nm.x, mean}, {centered}, {nm.id, nm.drop, nm.id});
  // The variance is the mean of the squared centred values; the 1/n is a constant factor the
  // affine model does not distinguish from a plain sum of squares.
  TensorPtr var = sg.tensor("var", dt, nm.reduced_shape);
  sg.op("var", "ReduceSumSquare", {centered}, {var}, {nm.id, nm.drop});
  TensorPtr stddev = sg.tensor("std", dt, nm.reduced_shape);
  sg.op("sqrt", "Sqrt", {var}, {stddev}, {nm.id_reduced, nm.id_reduced});
  TensorPtr normed = stage_output(sg, nm, node.inputs.size() == 1, "normed");
  sg.op("div", "Div", {centered, stddev}, {normed}, {nm.id, nm.drop, nm.id});
  affine_tail(sg, nm, normed);
  return std::move(sg).build({out_name(node)});
}

Workload decompose_rms_normalization(const Node& node) {
  Subgraph sg(node);
  const Norm nm = check(sg, 2);
  const DType dt = nm.x->dtype;
  TensorPtr sumsq = sg.tensor("sumsq", dt, nm.reduced_shape);
  sg.op("sumsq", "ReduceSumSquare", {nm.x}, {sumsq}, {nm.id, nm.drop});
  TensorPtr rms = sg.tensor("rms", dt, nm.reduced_shape);
  sg.op("sqrt", "Sqrt", {sumsq}, {rms}, {nm.id_reduced, nm.id_reduced});
  TensorPtr normed = stage_output(sg, nm, node.inputs.size() == 1, "normed");
  sg.op("div", "Div", {nm.x, rms}, {normed}, {nm.id, nm.drop, nm.id});
  affine_tail(sg, nm, normed);
  return std::move(sg).build({out_name(node)});
}

}  // namespace stream::decompositions
