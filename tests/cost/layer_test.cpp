// Layer::from_tile (cost/layer.hpp): window axes as partially relevant dims and their extents, on
// small hand-derived convolution tiles.
#include <gtest/gtest.h>

#include "stream/cost/layer.hpp"

namespace {

using namespace stream::cost;

AxisExpr plain(int d) { return AxisExpr{{{d, 1}}, 0}; }
AxisExpr window(int a, std::int64_t ca, int b, std::int64_t cb, std::int64_t c) { return AxisExpr{{{a, ca}, {b, cb}}, c}; }

// conv tile: dims b, ox, oy, fx, fy, c, k (D0..D6) as Stream orders them.
Tile conv_tile(std::int64_t ox, std::int64_t oy, std::int64_t f, std::int64_t c, std::int64_t k, std::int64_t stride,
               std::int64_t pad, std::int64_t in) {
  Tile t;
  t.op_type = "Conv";
  t.dims = {{"b", 1}, {"ox", ox}, {"oy", oy}, {"fx", f}, {"fy", f}, {"c", c}, {"k", k}};
  t.operands.push_back({"O", 16, {1, k, oy, ox}, {plain(0), plain(6), plain(2), plain(1)}});
  t.operands.push_back({"A", 16, {1, c, in, in}, {plain(0), plain(5), window(2, stride, 4, 1, -pad), window(1, stride, 3, 1, -pad)}});
  t.operands.push_back({"B", 16, {k, c, f, f}, {plain(6), plain(5), plain(4), plain(3)}});
  return t;
}

TEST(Layer, WindowAxesBecomePrDimsWithClippedExtent) {
  // FORMAT.md's example: ox = 8, fx = 3, pad 1, logical 32 -> indices -1..8 clipped to 0..8 = 9.
  const Layer l = Layer::from_tile(conv_tile(8, 32, 3, 8, 16, 1, 1, 32));
  ASSERT_EQ(l.n_pr, 2);
  EXPECT_EQ(l.pr[1].full_size, 9);   // the ox window (second window axis of A)
  EXPECT_EQ(l.pr[0].full_size, 32);  // oy = 32: -1..32 clipped to 0..31
  EXPECT_EQ(l.pr[0].padding, 1);
  // Input A: r = {b, c} (no size-1 filter for a pr operand), ir = {k}; ox/oy/fx/fy neither.
  EXPECT_EQ(l.operands[1].r, bit(0) | bit(5));
  EXPECT_EQ(l.operands[1].ir, bit(6));
  // Output: r = {k, oy, ox} (b has size 1), ir = {fx, fy, c}.
  EXPECT_EQ(l.operands[0].r, bit(6) | bit(2) | bit(1));
  EXPECT_EQ(l.operands[0].ir, bit(3) | bit(4) | bit(5));
  EXPECT_EQ(l.macs, 8 * 32 * 9 * 8 * 16);
}

TEST(Layer, StrideTwoWindowExtent) {
  // 2*ox + fx - 1 with ox = 4, fx = 3 covers -1..7; clipped to 0..7 of an 8-wide input: 8.
  const Layer l = Layer::from_tile(conv_tile(4, 4, 3, 2, 2, 2, 1, 8));
  EXPECT_EQ(l.pr[1].full_size, 8);
}

TEST(Layer, PrSizeFormula) {
  Tile t = conv_tile(8, 8, 3, 2, 2, 2, 0, 1000);
  Layer l = Layer::from_tile(t);
  // stride 2: A*B - max(0, B - 2) * (A - 1) = 2*(A-1) + B
  EXPECT_EQ(l.pr_size(0, 3, 3), 7.0);
  EXPECT_EQ(l.pr_size(0, 1, 3), 3.0);
  // Source products are truncated before the formula (fractional spatial unrolling).
  EXPECT_EQ(l.pr_size(0, 3.5, 3), 7.0);
  // Clipped to the full size.
  l.pr[0].full_size = 5;
  EXPECT_EQ(l.pr_size(0, 3, 3), 5.0);
  // Dilation 2 (ox + 2*fx): A + 2*(B-1).
  Tile d = conv_tile(5, 5, 3, 2, 2, 1, 0, 1000);
  d.operands[1].axes[3] = window(1, 1, 3, 2, 0);
  const Layer ld = Layer::from_tile(d);
  EXPECT_EQ(ld.pr_size(1, 5, 3), 9.0);
}

TEST(Layer, UnsupportedAxisFormsAreStreamErrors) {
  Tile t = conv_tile(4, 4, 3, 2, 2, 1, 1, 8);
  t.operands[2].axes[0] = AxisExpr{{}, 0};  // broadcast: constant only
  EXPECT_THROW(Layer::from_tile(t), StreamLayerError);
  t = conv_tile(4, 4, 3, 2, 2, 1, 1, 8);
  t.operands[2].axes[0] = AxisExpr{{{6, 2}}, 0};  // single term with coefficient 2
  EXPECT_THROW(Layer::from_tile(t), StreamLayerError);
  t = conv_tile(4, 4, 3, 2, 2, 1, 1, 8);
  t.operands[1].axes[2] = window(2, 1, 4, 1, 1);  // positive constant
  EXPECT_THROW(Layer::from_tile(t), StreamLayerError);
  t = conv_tile(4, 4, 3, 2, 2, 1, 1, 8);
  t.operands[1].axes[1] = AxisExpr{{{5, 1}}, 3};  // d + const is the plain dim
  EXPECT_NO_THROW(Layer::from_tile(t));
}

}  // namespace
