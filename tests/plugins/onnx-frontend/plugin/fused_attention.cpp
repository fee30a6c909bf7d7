// Test plugin: a parser for a fused multi-head attention op FusedAttention(x, Wq, Wk, Wv, Wo)
// with attribute num_heads, lowering it into the same affine nodes the ONNX frontend produces for
// the unfused attention: three projections, scores, softmax, context and the output projection.
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

namespace {

using stream::AffineExpr;
using stream::AffineMap;
using E = AffineExpr;

std::vector<stream::Node> lower(const stream::OnnxNodeView& v, stream::OnnxParseContext& ctx) {
  if (v.inputs.size() != 5) v.fail("expects inputs (x, Wq, Wk, Wv, Wo)");
  auto x = ctx.tensor(v.inputs[0].name);
  auto y = ctx.tensor(v.outputs.at(0).name);
  const auto H = v.attr_int("num_heads", 0);
  if (x->rank() != 3 || H < 1 || x->shape[2] % H != 0) v.fail("expects x [B, S, D] and num_heads dividing D", x->name);
  const auto B = x->shape[0], S = x->shape[1], D = x->shape[2], Dh = D / H;
  const auto dt = x->dtype;
  std::vector<stream::Node> out;
  std::vector<stream::TensorPtr> heads;
  const char* names[] = {"q", "k", "v"};
  for (int i = 0; i < 3; ++i) {
    auto W = ctx.tensor(v.inputs[static_cast<std::size_t>(1 + i)].name);
    auto t = ctx.new_tensor(v.name + "_" + names[i], dt, {B, S, H, Dh});
    // dims (b, s, h, e, k): x(b,s,k), W(k, h*Dh + e), t(b,s,h,e)
    out.push_back(stream::make_computation(
        v.name + "_proj_" + names[i], "MatMul", {x, W}, {t},
        {AffineMap(5, {E::dim(0), E::dim(1), E::dim(4)}), AffineMap(5, {E::dim(4), E::dim(2) * Dh + E::dim(3)}),
         AffineMap(5, {E::dim(0), E::dim(1), E::dim(2), E::dim(3)})}));
    heads.push_back(t);
  }
  auto scores = ctx.new_tensor(v.name + "_scores", dt, {B, H, S, S});
  // dims (b, h, i, j, e)
  out.push_back(stream::make_computation(
      v.name + "_scores", "MatMul", {heads[0], heads[1]}, {scores},
      {AffineMap(5, {E::dim(0), E::dim(2), E::dim(1), E::dim(4)}), AffineMap(5, {E::dim(0), E::dim(3), E::dim(1), E::dim(4)}),
       AffineMap(5, {E::dim(0), E::dim(1), E::dim(2), E::dim(3)})}));
  auto probs = ctx.new_tensor(v.name + "_probs", dt, {B, H, S, S});
  out.push_back(stream::make_normalization(v.name + "_softmax", "Softmax", scores, probs, {3}));
  auto context = ctx.new_tensor(v.name + "_context", dt, {B, H, S, Dh});
  // dims (b, h, i, e, j)
  out.push_back(stream::make_computation(
      v.name + "_context", "MatMul", {probs, heads[2]}, {context},
      {AffineMap(5, {E::dim(0), E::dim(1), E::dim(2), E::dim(4)}), AffineMap(5, {E::dim(0), E::dim(4), E::dim(1), E::dim(3)}),
       AffineMap(5, {E::dim(0), E::dim(1), E::dim(2), E::dim(3)})}));
  auto Wo = ctx.tensor(v.inputs[4].name);
  // dims (b, s, o, h, e)
  out.push_back(stream::make_computation(
      v.name + "_out_proj", "MatMul", {context, Wo}, {y},
      {AffineMap(5, {E::dim(0), E::dim(3), E::dim(1), E::dim(4)}), AffineMap(5, {E::dim(3) * Dh + E::dim(4), E::dim(2)}),
       AffineMap(5, {E::dim(0), E::dim(1), E::dim(2)})}));
  return out;
}

void register_plugin(stream::PluginRegistrar& registrar) { registrar.add_onnx_parser("FusedAttention", lower); }

}  // namespace

STREAM_PLUGIN("test-fused-attention", "1.0.0", register_plugin)
