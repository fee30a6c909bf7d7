// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss. The loss at (n, d1..dk) reads the input
// at the class its int64 target names: one loop per target axis, the input read at (n, 0, d...)
// and the optional per-class weight at 0, data-dependent accesses routed by the target (the
// footprint, one class per position, is exact; which one is not known). The reduction "none"
// writes the loss per position, "mean" and "sum" one scalar (every loop a reduction).
// SoftmaxCrossEntropyLoss is a LogSoftmax over the class axis (its optional log_prob output)
// followed by that loss.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

// The loss node: `scores` (N, C, d...) indexed by target (N, d...) -> Y.
Node nll_node(const OnnxNodeView& v, OnnxParseContext& ctx, const std::string& name, const TensorPtr& scores,
              const TensorPtr& Y) {
  const auto& target = v.inputs[1];
  if (scores->rank() < 2) v.fail("the input must be (N, C, d1, ...)", scores->name);
  std::vector<std::int64_t> positions{scores->shape[0]};
  positions.insert(positions.end(), scores->shape.begin() + 2, scores->shape.end());
  if (target.shape != positions) v.fail("the target must be the input's shape without the class axis", target.name);
  const auto reduction = v.attr_string("reduction", "mean");
  if (reduction != "none" && reduction != "mean" && reduction != "sum")
    v.fail("reduction '" + reduction + "' is not one of none, mean, sum");
  check_output_shape(v, *Y, reduction == "none" ? positions : std::vector<std::int64_t>{}, "the reduction '" + reduction + "'");
  const int dims = static_cast<int>(positions.size());
  std::vector<E> sr{E::dim(0), E::constant(0)}, pos;
  for (int a = 0; a < dims; ++a) pos.push_back(E::dim(a));
  for (int a = 1; a < dims; ++a) sr.push_back(E::dim(a));
  const AffineMap score_map(dims, sr), weight_map(dims, {E::constant(0)});
  std::vector<TensorPtr> ins{scores};
  std::vector<AffineMap> maps{score_map};
  std::vector<std::optional<AccessRelation>> access{routed_by(score_map, target.name)};
  if (has_input(v, 2)) {
    auto W = input_tensor(v, ctx, 2);
    if (W->shape != std::vector<std::int64_t>{scores->shape[1]}) v.fail("the weight must have one value per class", W->name);
    ins.push_back(W);
    maps.push_back(weight_map);
    access.push_back(routed_by(weight_map, target.name));
  }
  maps.emplace_back(dims, reduction == "none" ? pos : std::vector<E>{});
  access.emplace_back(std::nullopt);
  auto node = make_computation(name, "NegativeLogLikelihoodLoss", ins, {Y}, maps);
  node.access_overrides = access;
  validate(node);
  return node;
}

std::vector<Node> parse_nll(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  return {nll_node(v, ctx, v.name, input_tensor(v, ctx, 0), output_tensor(v, ctx, 0))};
}

std::vector<Node> parse_softmax_cross_entropy(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  if (X->rank() < 2) v.fail("the scores must be (N, C, d1, ...)", X->name);
  const bool log_prob_used = v.outputs.size() > 1 && v.outputs[1].present();
  auto log_prob = log_prob_used ? output_tensor(v, ctx, 1) : ctx.new_tensor(v.name + "_log_prob", X->dtype, X->shape);
  check_output_shape(v, *log_prob, X->shape, "the scores' shape");
  std::vector<Node> out;
  out.push_back(make_normalization(v.name + "_log_softmax", "LogSoftmax", X, log_prob, {1}));
  out.push_back(nll_node(v, ctx, v.name, log_prob, output_tensor(v, ctx, 0)));
  return out;
}

}  // namespace

void add_loss_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("NegativeLogLikelihoodLoss", parse_nll);
  out.emplace_back("SoftmaxCrossEntropyLoss", parse_softmax_cross_entropy);
}

}  // namespace stream::onnx_frontend
