// CausalConvWithState: a depthwise causal 1-D convolution over (B, C, L) whose first K-1 inputs
// come from a carried state (Mamba's and gated linear attention's short convolution). Lowered to
// `<n>_conv` (type CausalConv, loops b, c, l, k: output l reads input l + k - (K-1), masked to the
// sequence, and the past state at l + k, masked to it; weight (c, 0, k); bias at c), the optional
// activation (silu/swish, an element-wise Silu writing the output), and `<n>_present` (a Concat
// copying the last K-1 positions of past state then input: position t reads the past at t + L and
// the input at t + L - (K-1), each masked to its part).
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<Node> parse_causal_conv(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0), W = input_tensor(v, ctx, 1);
  auto Y = output_tensor(v, ctx, 0);
  if (X->rank() != 3 || W->rank() != 3 || W->shape[0] != X->shape[1] || W->shape[1] != 1)
    v.fail("expects input (B, C, L) and a depthwise weight (C, 1, K)", W->name);
  check_output_shape(v, *Y, X->shape, "the input's shape");
  const auto B = X->shape[0], C = X->shape[1], L = X->shape[2], K = W->shape[2];
  auto bias = has_input(v, 2) ? input_tensor(v, ctx, 2) : nullptr;
  auto past = has_input(v, 3) ? input_tensor(v, ctx, 3) : nullptr;
  if (bias && bias->shape != std::vector<std::int64_t>{C}) v.fail("bias must have one value per channel", bias->name);
  if (past && past->shape != std::vector<std::int64_t>{B, C, K - 1}) v.fail("past_state must be (B, C, K-1)", past->name);
  const auto activation = v.attr_string("activation", "none");
  if (activation != "none" && activation != "silu" && activation != "swish")
    v.fail("unknown activation '" + activation + "' (none, silu, swish)");
  std::vector<Node> out;
  // The convolution over (b, c, l, k).
  const E b = E::dim(0), c = E::dim(1), l = E::dim(2), k = E::dim(3);
  const bool activated = activation != "none";
  auto conv_out = activated ? ctx.new_tensor(v.name + "_conv", Y->dtype, Y->shape) : Y;
  std::vector<TensorPtr> ins{X, W};
  std::vector<AffineMap> maps{AffineMap(4, {b, c, l + k - (K - 1)}), AffineMap(4, {c, E::constant(0), k})};
  std::vector<std::optional<AccessRelation>> access{masked(maps[0]), std::nullopt};
  if (bias) {
    ins.push_back(bias);
    maps.emplace_back(4, std::vector<E>{c});
    access.emplace_back(std::nullopt);
  }
  if (past) {
    ins.push_back(past);
    maps.emplace_back(4, std::vector<E>{b, c, l + k});
    access.push_back(masked(maps.back()));
  }
  maps.emplace_back(4, std::vector<E>{b, c, l});
  access.emplace_back(std::nullopt);
  auto conv = make_computation(v.name + "_conv", "CausalConv", ins, {conv_out}, maps);
  conv.access_overrides = access;
  conv.dim_names = {"b", "c", "l", "k"};
  validate(conv);
  out.push_back(std::move(conv));
  if (activated)
    out.push_back(make_computation(v.name, "Silu", {conv_out}, {Y}, {AffineMap::identity(3), AffineMap::identity(3)}));
  // present_state: the last K-1 positions of past ++ input.
  if (v.outputs.size() > 1 && v.outputs[1].present()) {
    auto present = output_tensor(v, ctx, 1);
    check_output_shape(v, *present, {B, C, K - 1}, "(B, C, K-1)");
    const E t = E::dim(2);
    std::vector<TensorPtr> pin;
    std::vector<AffineMap> pmaps;
    std::vector<std::optional<AccessRelation>> paccess;
    if (past) {
      pin.push_back(past);
      pmaps.emplace_back(3, std::vector<E>{b, c, t + L});
      paccess.push_back(masked(pmaps.back()));
    }
    pin.push_back(X);
    pmaps.emplace_back(3, std::vector<E>{b, c, t + (L - (K - 1))});
    paccess.push_back(masked(pmaps.back()));
    pmaps.push_back(AffineMap::identity(3));
    paccess.emplace_back(std::nullopt);
    auto copy = make_computation(v.name + "_present", "Concat", pin, {present}, pmaps);
    copy.access_overrides = paccess;
    validate(copy);
    out.push_back(std::move(copy));
  }
  return out;
}

}  // namespace

void add_causal_conv_parsers(std::vector<ParserEntry>& out) { out.emplace_back("CausalConvWithState", parse_causal_conv); }

}  // namespace stream::onnx_frontend
