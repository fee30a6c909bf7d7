// DeformConv (opsets 19, 22): a convolution whose every kernel tap samples the input at a learned
// offset from its nominal position (bilinearly), optionally scaled by a mask. Loops are Conv's: b,
// k, o_1..o_n, c, f_1..f_n. The input is read data-dependently (routed by the offsets) with the
// nominal window `o*stride + f*dilation - pad` as the bound; the offsets are read per tap and
// output position, one piece per coordinate, at channel (offset group * taps + tap) * n + coord
// (the offset group of input channel c is c / (C / offset_group)); the mask likewise at
// offset group * taps + tap; the weight at (k, c, f...), the bias at k. Groups > 1 are rejected.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<Node> parse_deform_conv(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  auto X = input_tensor(v, ctx, 0), W = input_tensor(v, ctx, 1), offset = input_tensor(v, ctx, 2);
  auto Y = output_tensor(v, ctx, 0);
  if (X->rank() < 3 || W->rank() != X->rank() || Y->rank() != X->rank() || offset->rank() != X->rank())
    v.fail("X, W, offset and Y must have one rank >= 3", X->name);
  if (v.attr_int("group", 1) != 1) v.fail("group > 1 is not supported");
  const int n = static_cast<int>(X->rank()) - 2;
  const auto C = X->shape[1], groups = v.attr_int("offset_group", 1);
  if (W->shape[1] != C) v.fail("the weight must be (K, C, kernel...)", W->name);
  if (groups < 1 || C % groups != 0) v.fail("offset_group must divide the input channels");
  const auto strides = v.attr_ints("strides", std::vector<std::int64_t>(static_cast<std::size_t>(n), 1));
  const auto dil = v.attr_ints("dilations", std::vector<std::int64_t>(static_cast<std::size_t>(n), 1));
  const auto pads = v.attr_ints("pads", std::vector<std::int64_t>(2 * static_cast<std::size_t>(n), 0));
  if (strides.size() != static_cast<std::size_t>(n) || dil.size() != static_cast<std::size_t>(n) ||
      pads.size() != 2 * static_cast<std::size_t>(n))
    v.fail("strides and dilations need one value per spatial axis, pads two");
  std::int64_t taps = 1, per_group = 0, offset_channels = 0;
  for (int s = 0; s < n; ++s)
    if (__builtin_mul_overflow(taps, W->shape[static_cast<std::size_t>(2 + s)], &taps)) v.fail("the kernel is too large", W->name);
  if (__builtin_mul_overflow(taps, n, &per_group) || __builtin_mul_overflow(groups, per_group, &offset_channels) ||
      offset->shape[1] != offset_channels)
    v.fail("offset must have offset_group * taps * " + std::to_string(n) + " channels", offset->name);
  // Dims: b 0, k 1, o 2..n+1, c n+2, f n+3..2n+2.
  const int dims = 2 * n + 3, c = n + 2;
  const E b = E::dim(0), k = E::dim(1);
  std::vector<E> xr{b, E::dim(c)}, wr{k, E::dim(c)}, yr{b, k}, positions;
  E tap = E::constant(0);
  for (int s = 0; s < n; ++s) {
    const auto u = static_cast<std::size_t>(s);
    const E o = E::dim(2 + s), f = E::dim(n + 3 + s);
    xr.push_back(o * strides[u] + f * dil[u] - pads[u]);
    wr.push_back(f);
    yr.push_back(o);
    positions.push_back(o);
    tap = tap * W->shape[static_cast<std::size_t>(2 + s)] + f;
  }
  const E group_tap = E::dim(c).floordiv(C / groups) * taps + tap;
  AccessRelation offsets;
  offsets.kind = AccessKind::PiecewiseAffine;
  for (int coord = 0; coord < n; ++coord) {
    std::vector<E> r{b, group_tap * n + coord};
    r.insert(r.end(), positions.begin(), positions.end());
    offsets.pieces.emplace_back(dims, r);
  }
  std::vector<TensorPtr> ins{X, W, offset};
  std::vector<AffineMap> maps{AffineMap(dims, xr), AffineMap(dims, wr), offsets.pieces.front()};
  std::vector<std::optional<AccessRelation>> access{routed_by(maps[0], offset->name), std::nullopt, offsets};
  if (has_input(v, 3)) {
    ins.push_back(input_tensor(v, ctx, 3));
    maps.emplace_back(dims, std::vector<E>{k});
    access.emplace_back(std::nullopt);
  }
  if (has_input(v, 4)) {
    std::vector<E> mr{b, group_tap};
    mr.insert(mr.end(), positions.begin(), positions.end());
    ins.push_back(input_tensor(v, ctx, 4));
    maps.emplace_back(dims, mr);
    access.emplace_back(std::nullopt);
  }
  maps.emplace_back(dims, yr);
  access.emplace_back(std::nullopt);
  auto node = make_computation(v.name, "DeformConv", ins, {Y}, maps);
  node.access_overrides = access;
  std::vector<std::string> names{"b", "k"};
  for (int s = 0; s < n; ++s) names.push_back("o" + std::to_string(s));
  names.push_back("c");
  for (int s = 0; s < n; ++s) names.push_back("f" + std::to_string(s));
  node.dim_names = names;
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_deform_conv_parsers(std::vector<ParserEntry>& out) { out.emplace_back("DeformConv", parse_deform_conv); }

}  // namespace stream::onnx_frontend
