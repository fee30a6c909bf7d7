// Normalizations: Softmax, LogSoftmax, LayerNormalization, LpNormalization, InstanceNormalization
// become NormalizationNodes (identity maps, the normalised axes in reduction_axes; scalar `axis`
// attributes and negative axes honoured). BatchNormalization is an element-wise affine node
// reading the per-channel scale, bias, mean and variance. The statistics LayerNormalization and a
// training-mode BatchNormalization can also write are reduction nodes of their own (statistic()).
#include <numeric>

#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

void require_single_output(const OnnxNodeView& v) {
  for (std::size_t i = 1; i < v.outputs.size(); ++i)
    if (v.outputs[i].present()) v.fail("only the first output is supported, but output " + std::to_string(i) + " is used",
                                       v.outputs[i].name);
}

// Outputs beyond the operator's last one are an error (ONNX's own schema bounds them).
void require_at_most(const OnnxNodeView& v, std::size_t count) {
  for (std::size_t i = count; i < v.outputs.size(); ++i)
    if (v.outputs[i].present()) v.fail(v.op_type + " has " + std::to_string(count) + " outputs, but output " +
                                       std::to_string(i) + " is used", v.outputs[i].name);
}

std::vector<Node> parse_softmax(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  require_single_output(v);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const auto r = Y->rank();
  // Before opset 13 Softmax flattened the input at `axis` (default 1) and normalised everything after it.
  const bool legacy = opset_of(v) > 0 && opset_of(v) < 13;
  const int axis = normalize_axis(v, v.attr_int("axis", legacy ? 1 : -1), r);
  std::vector<int> axes;
  if (legacy) for (int a = axis; a < static_cast<int>(r); ++a) axes.push_back(a);
  else axes = {axis};
  return {make_normalization(v.name, v.op_type, X, Y, axes)};
}

// A statistic a normalization writes besides Y (LayerNormalization's Mean and InvStdDev,
// BatchNormalization's running mean and variance in training mode): a reduction node over X's
// axes that `kept` does not list, its output reading the kept axes and 0 on the others (a size-1
// axis) or dropping them. The normalization computes it on its way; as its own node it reads X
// again, so a used statistic costs a second pass over X (no fused kernel is assumed).
Node statistic(const OnnxNodeView& v, OnnxParseContext& ctx, std::size_t slot, const std::string& suffix,
               const std::string& type, const TensorPtr& X, const std::vector<bool>& kept, bool keep_dims) {
  auto S = output_tensor(v, ctx, slot);
  const int r = static_cast<int>(X->rank());
  std::vector<E> sr;
  for (int a = 0; a < r; ++a) {
    if (kept[static_cast<std::size_t>(a)]) sr.push_back(E::dim(a));
    else if (keep_dims) sr.push_back(E::constant(0));
  }
  if (sr.size() != S->rank()) v.fail("output " + std::to_string(slot) + " has rank " + std::to_string(S->rank()) +
                                         ", expected " + std::to_string(sr.size()), S->name);
  return make_computation(v.name + "_" + suffix, type, {X}, {S}, {AffineMap::identity(r), AffineMap(r, sr)});
}

// Y normalised over the axes from `axis` on; the optional Mean (output 1) and InvStdDev (output 2),
// of shape X.shape[:axis] followed by ones, are statistics (above) when used.
std::vector<Node> parse_layer_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const auto r = Y->rank();
  const int axis = normalize_axis(v, v.attr_int("axis", -1), r);
  std::vector<int> axes(r - static_cast<std::size_t>(axis));
  std::iota(axes.begin(), axes.end(), axis);
  std::vector<Node> out{make_normalization(v.name, "LayerNormalization", X, Y, axes)};
  std::vector<bool> kept(r, false);
  for (int a = 0; a < axis; ++a) kept[static_cast<std::size_t>(a)] = true;
  const std::pair<const char*, const char*> stats[] = {{"mean", "ReduceMean"}, {"inv_std_dev", "ReduceSumSquare"}};
  for (std::size_t i = 1; i < v.outputs.size() && i < 3; ++i)
    if (v.outputs[i].present()) out.push_back(statistic(v, ctx, i, stats[i - 1].first, stats[i - 1].second, X, kept, true));
  require_at_most(v, 3);
  return out;
}

std::vector<Node> parse_lp_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const int axis = normalize_axis(v, v.attr_int("axis", -1), Y->rank());
  return {make_normalization(v.name, "LpNormalization", X, Y, {axis})};
}

std::vector<Node> parse_instance_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (Y->rank() < 3) v.fail("expects an (N, C, spatial...) input", X->name);
  std::vector<int> axes;
  for (int a = 2; a < static_cast<int>(Y->rank()); ++a) axes.push_back(a);
  return {make_normalization(v.name, "InstanceNormalization", X, Y, axes)};
}

// Y is an element-wise affine node reading the per-channel scale, bias, mean and variance. In
// training mode (opset 14+: training_mode = 1) the running mean and variance (outputs 1 and 2, of
// shape [C]) are statistics over every axis but the channel (above); opset 9's saved mean and
// variance (outputs 3 and 4) likewise.
std::vector<Node> parse_batch_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 5);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (X->rank() < 2) v.fail("expects an (N, C, ...) input", X->name);
  const int r = static_cast<int>(X->rank());
  std::vector<TensorPtr> ins{X};
  std::vector<AffineMap> maps{AffineMap::identity(r)};
  for (std::size_t i = 1; i < 5; ++i) {
    auto p = input_tensor(v, ctx, i);
    if (p->rank() != 1) v.fail("per-channel parameter must be 1-D", p->name);
    ins.push_back(p);
    maps.emplace_back(r, std::vector<E>{E::dim(1)});
  }
  maps.push_back(AffineMap::identity(r));
  std::vector<Node> out{make_computation(v.name, "BatchNormalization", ins, {Y}, maps)};
  std::vector<bool> channel(static_cast<std::size_t>(r), false);
  channel[1] = true;
  const char* names[] = {"", "running_mean", "running_var", "saved_mean", "saved_var"};
  const char* types[] = {"", "ReduceMean", "ReduceSumSquare", "ReduceMean", "ReduceSumSquare"};
  for (std::size_t i = 1; i < v.outputs.size() && i < 5; ++i)
    if (v.outputs[i].present()) out.push_back(statistic(v, ctx, i, names[i], types[i], X, channel, false));
  require_at_most(v, 5);
  return out;
}

}  // namespace

void add_normalization_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("Softmax", parse_softmax);
  out.emplace_back("LogSoftmax", parse_softmax);
  out.emplace_back("Hardmax", parse_softmax);  // a max and a compare over the same axes as Softmax's
  out.emplace_back("LayerNormalization", parse_layer_norm);
  out.emplace_back("LpNormalization", parse_lp_norm);
  out.emplace_back("InstanceNormalization", parse_instance_norm);
  out.emplace_back("BatchNormalization", parse_batch_norm);
}

}  // namespace stream::onnx_frontend
