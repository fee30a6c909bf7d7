// ConvTranspose as a scatter (parsers_conv_transpose.cpp): loops (b, ix, iy, fx, fy, c, k[, g]),
// x[b, c, i] and w[c, k, f] read with bare loops, y[b, k, s*i + d*f] written; a `Pad` crop when
// the begin pad or the scatter's extent does not match the output. Every case asserts the MACs,
// which must be the real count N * C * prod(in) * prod(k) * K/G: each input element meets each tap
// once, and an output phase that no tap reaches (stride > kernel span) costs nothing.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

using Ints = std::vector<std::int64_t>;

TEST(ConvTranspose, StrideTwoDecoderScattersThenCrops) {
  // k = 3, s = 2, pads 1, output_padding 1, in 4: out = 2*3 + 1 + 3 - 2 = 8. The scatter reaches
  // 2*3 + 2 + 1 = 9 positions; the output is positions [1, 9).
  // MACs: N 1 * C 8 * in 4*4 * k 3*3 * K 4 = 4608 (the zero-inserted convolution costed 8*8*9*8*4 = 18432).
  ModelBuilder m("g");
  m.input("X", F32, {1, 8, 4, 4}).initializer("W", F32, {8, 4, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "up").attr("strides", Shape{2, 2}).attr("pads", Shape{1, 1, 1, 1})
      .attr("output_padding", Shape{1, 1}).attr("kernel_shape", Shape{3, 3});
  auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 2u);
  const auto& n = node(w, "up");
  EXPECT_EQ(n.type, "ConvTranspose");
  EXPECT_EQ(n.inputs[0]->name, "X");
  EXPECT_EQ(n.dim_names, (std::vector<std::string>{"b", "ix", "iy", "fx", "fy", "c", "k"}));
  EXPECT_EQ(map_of(n, 0), "(d0, d5, d2, d1)");
  EXPECT_EQ(map_of(n, 1), "(d5, d6, d4, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d6, ((d2 * 2) + d4), ((d1 * 2) + d3))");
  EXPECT_EQ(n.outputs[0]->shape, (Ints{1, 4, 9, 9}));
  EXPECT_EQ(sizes(n), (Ints{1, 4, 4, 3, 3, 8, 4}));
  EXPECT_EQ(kinds(n), "PPPPPRP");  // the taps index the output: neighbouring inputs add into it
  const auto& c = node(w, "up_crop");
  EXPECT_EQ(c.type, "Pad");
  EXPECT_EQ(c.inputs[0]->name, n.outputs[0]->name);
  EXPECT_EQ(c.outputs[0]->name, "Y");
  EXPECT_EQ(c.outputs[0]->shape, (Ints{1, 4, 8, 8}));
  EXPECT_EQ(map_of(c, 0), "(d0, d1, (d2 + 1), (d3 + 1))");
  EXPECT_EQ(total_macs(w), 4608);
}

TEST(ConvTranspose, OneDStrideOne) {
  // k = 3, pads 1, in 5: out = 4 + 3 - 2 = 5, scatter 4 + 2 + 1 = 7, output [1, 6).
  // MACs: C 2 * in 5 * k 3 * K 3 = 90 (the dense convolution over the padded input: 2*5*3*3 = 90
  // too: with pads (k-1)/2 each border read of padding matches a cropped scatter).
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 5}).initializer("W", F32, {2, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("pads", Shape{1, 1});
  auto w = parse(m);
  const auto& n = node(w, "ct");
  EXPECT_EQ(map_of(n, 0), "(d0, d3, d1)");
  EXPECT_EQ(map_of(n, 2), "(d0, d4, (d1 + d2))");
  EXPECT_EQ(n.outputs[0]->shape, (Ints{1, 3, 7}));
  EXPECT_EQ(node(w, "ct_crop").outputs[0]->shape, (Ints{1, 3, 5}));
  EXPECT_EQ(total_macs(w), 90);
}

TEST(ConvTranspose, StrideOneWithoutPadsCostsNoBorder) {
  // in 3x3, k 3x3, s 1, K 2 (ONNX's test_convtranspose): out 5x5 = the scatter, written directly.
  // MACs: 9 * 9 * 2 = 162; a convolution over the padded input costs 5*5*9*2 = 450.
  ModelBuilder m("g");
  m.input("X", F32, {1, 1, 3, 3}).initializer("W", F32, {1, 2, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct");
  auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 1u);
  EXPECT_EQ(node(w, "ct").outputs[0]->name, "Y");
  EXPECT_EQ(node(w, "ct").outputs[0]->shape, (Ints{1, 2, 5, 5}));
  EXPECT_EQ(total_macs(w), 162);
}

TEST(ConvTranspose, StrideAboveTheKernelLeavesPhasesWithoutTaps) {
  // k = 2, s = 3, in 3: out = 3*2 + 2 = 8 = the scatter; y[3i + f] never reaches positions 2 and
  // 5 (phase 2 has no tap): they hold the bias and cost nothing.
  // MACs: in 3*3 * k 2*2 = 36 (the zero-inserted convolution: 8*8*2*2 = 256).
  ModelBuilder m("g");
  m.input("X", F32, {1, 1, 3, 3}).initializer("W", F32, {1, 1, 2, 2}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{3, 3});
  auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 1u);
  const auto& n = node(w, "ct");
  EXPECT_EQ(n.outputs[0]->shape, (Ints{1, 1, 8, 8}));
  EXPECT_EQ(map_of(n, 2), "(d0, d6, ((d2 * 3) + d4), ((d1 * 3) + d3))");
  EXPECT_EQ(total_macs(w), 36);
}

TEST(ConvTranspose, GroupsAndDilationsKeepTheGroupLoop) {
  // G = 2, C = 4 (2 per group), W [4, 3, 3, 3]: K = 6 (3 per group); d = 2, s = 1, no pads:
  // out = 4 + (3-1)*2 + 1 = 9 = the scatter. Channel axes split by group (the views fold into the
  // graph's tensors): X [1, 2, 2, 5, 5] at (b, g, c), W [2, 2, 3, 3, 3] at (g, c, k),
  // Y [1, 2, 3, 9, 9] at (b, g, k).
  // MACs: C 4 * in 5*5 * k 3*3 * K/G 3 = 2700.
  ModelBuilder m("g");
  m.input("X", F32, {1, 4, 5, 5}).initializer("W", F32, {4, 3, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("group", 2).attr("dilations", Shape{2, 2});
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& n = node(w, "ct");
  EXPECT_EQ(n.outputs[0]->shape, (Ints{1, 2, 3, 9, 9}));
  EXPECT_EQ(map_of(n, 0), "(d0, d7, d5, d2, d1)");
  EXPECT_EQ(map_of(n, 1), "(d7, d5, d6, d4, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d7, d6, (d2 + (d4 * 2)), (d1 + (d3 * 2)))");
  EXPECT_EQ(sizes(n), (Ints{1, 5, 5, 3, 3, 2, 3, 2}));
  EXPECT_EQ(total_macs(w), 2700);
}

TEST(ConvTranspose, DepthwiseHasOneChannelPerGroup) {
  // G = C = K = 4: X channel g, W [g, k (extent 1)], Y g; c and k have extent 1.
  // out = 2*3 + 2 = 8 = the scatter. MACs: C 4 * in 4*4 * k 2*2 * K/G 1 = 256.
  ModelBuilder m("g");
  m.input("X", F32, {1, 4, 4, 4}).initializer("W", F32, {4, 1, 2, 2}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("group", 4).attr("strides", Shape{2, 2});
  auto w = parse(m);
  const auto& n = node(w, "ct");
  EXPECT_EQ(n.outputs[0]->shape, (Ints{1, 4, 8, 8}));
  EXPECT_EQ(map_of(n, 0), "(d0, d7, d2, d1)");
  EXPECT_EQ(map_of(n, 1), "(d7, d6, d4, d3)");
  EXPECT_EQ(sizes(n), (Ints{1, 4, 4, 2, 2, 1, 1, 4}));
  EXPECT_EQ(total_macs(w), 256);
}

TEST(ConvTranspose, AsymmetricPadsAndOutputPadding) {
  // in 4x3, k 3x3, s (2, 3), pads (1, 2, 0, 1), output_padding (1, 2):
  // H: scatter 2*3 + 3 = 9, out = 9 + 1 - 1 - 0 = 9, output [1, 10): the last row past the scatter.
  // W: scatter 3*2 + 3 = 9, out = 9 + 2 - 2 - 1 = 8, output [2, 10).
  // MACs: C 2 * in 4*3 * k 3*3 * K 3 = 648.
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 4, 3}).initializer("W", F32, {2, 3, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{2, 3}).attr("pads", Shape{1, 2, 0, 1})
      .attr("output_padding", Shape{1, 2});
  auto w = parse(m);
  EXPECT_EQ(node(w, "ct").outputs[0]->shape, (Ints{1, 3, 9, 9}));
  const auto& c = node(w, "ct_crop");
  EXPECT_EQ(c.outputs[0]->shape, (Ints{1, 3, 9, 8}));
  EXPECT_EQ(map_of(c, 0), "(d0, d1, (d2 + 1), (d3 + 2))");
  EXPECT_EQ(total_macs(w), 648);
}

TEST(ConvTranspose, OutputPaddingAloneWritesTheOutputDirectly) {
  // k 3, s (3, 2), output_padding (1, 1), in 3x3 (ONNX's test_convtranspose_pad): out = scatter + 1
  // = (10, 8); no crop, the last row and column hold the bias. MACs: 9 * 9 * K 2 = 162.
  ModelBuilder m("g");
  m.input("X", F32, {1, 1, 3, 3}).initializer("W", F32, {1, 2, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{3, 2}).attr("output_padding", Shape{1, 1});
  auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 1u);
  EXPECT_EQ(node(w, "ct").outputs[0]->shape, (Ints{1, 2, 10, 8}));
  EXPECT_EQ(total_macs(w), 162);
}

TEST(ConvTranspose, ThreeD) {
  // in 2x3x4, k 2x2x2, s 2, C 2, K 1: out = (4, 6, 8) = the scatter, written directly.
  // MACs: C 2 * in 24 * k 8 * K 1 = 384.
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 2, 3, 4}).initializer("W", F32, {2, 1, 2, 2, 2}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{2, 2, 2});
  auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 1u);
  const auto& n = node(w, "ct");
  EXPECT_EQ(n.outputs[0]->shape, (Ints{1, 1, 4, 6, 8}));
  EXPECT_EQ(n.dim_names, (std::vector<std::string>{"b", "ix", "iy", "iz", "fx", "fy", "fz", "c", "k"}));
  EXPECT_EQ(map_of(n, 2), "(d0, d8, ((d3 * 2) + d6), ((d2 * 2) + d5), ((d1 * 2) + d4))");
  EXPECT_EQ(total_macs(w), 384);
}

}  // namespace
