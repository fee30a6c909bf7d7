// The contraction parsers (parsers_linear.cpp: Conv, Gemm, MatMul, Einsum) against hand-derived
// maps, loop sizes and iterator kinds (workload spec §2.4; where the reference is wrong, spec §9,
// the correct semantics), and grouped convolution with groups other than 1 or depthwise (RegNet,
// ResNeXt): the convolution reads and writes channel axes split into (groups, channels per
// group), and layout folding splits its neighbours' channel loops the same way, so that producer,
// convolution and consumer share bare channel loops (conv_layout.hpp). Conv dims:
// (b, ox, oy, fx, fy, c, k[, g]).
#include <stream/ir/dimensions.hpp>

#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// Conv: dims (b, ox, oy, fx, fy, c, k[, g]).
TEST(Conv, TwoDWithPadsMatchesTheReferenceMaps) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 8, 16, 16}).initializer("W", F32, {4, 8, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"Y"}, "conv").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1}).attr("strides", Shape{2, 2});
  auto w = parse(m);
  const auto& n = node(w, "conv");
  // Output (16 + 2 - 3)/2 + 1 = 8.
  EXPECT_EQ(map_of(n, 0), "(d0, d5, (((d2 * 2) + d4) + -1), (((d1 * 2) + d3) + -1))");
  EXPECT_EQ(map_of(n, 1), "(d6, d5, d4, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d6, d2, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 8, 8, 3, 3, 8, 4}));
  EXPECT_EQ(kinds(n), "PPPRRRP");
}

TEST(Conv, AsymmetricPadsUseTheBeginPadPerAxis) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 8, 8, 8}).initializer("W", F32, {4, 8, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"Y"}, "ConvAsymPad").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 2, 0, 3});
  auto w = parse(m);
  const auto& n = node(w, "ConvAsymPad");
  const std::vector<std::int64_t> zero(7, 0);
  EXPECT_EQ(n.operand_mapping[0].result(2).eval(zero), -1);
  EXPECT_EQ(n.operand_mapping[0].result(3).eval(zero), -2);
  // H: 8 + 1 + 0 - 3 + 1 = 7; W: 8 + 2 + 3 - 3 + 1 = 11.
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 4, 7, 11}));
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 11, 7, 3, 3, 8, 4}));
}

TEST(Conv, StridesAreNotSwappedHUsesStrides0) {  // reference defect §9 #2
  ModelBuilder m("g");
  m.input("X", F32, {1, 3, 8, 13}).initializer("W", F32, {4, 3, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"Y"}, "conv").attr("kernel_shape", Shape{3, 3}).attr("strides", Shape{2, 1});
  auto w = parse(m);
  const auto& n = node(w, "conv");
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 4, 3, 11}));
  EXPECT_EQ(map_of(n, 0), "(d0, d5, ((d2 * 2) + d4), (d1 + d3))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 11, 3, 3, 3, 3, 4}));
}

TEST(Conv, DilationsScaleTheKernelIndex) {  // reference defect §9 #3
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 9, 9}).initializer("W", F32, {2, 2, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"Y"}, "conv").attr("kernel_shape", Shape{3, 3}).attr("dilations", Shape{2, 2});
  auto w = parse(m);
  const auto& n = node(w, "conv");
  EXPECT_EQ(map_of(n, 0), "(d0, d5, (d2 + (d4 * 2)), (d1 + (d3 * 2)))");
  // 9 - 2*(3-1) = 5 outputs per axis.
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 5, 5, 3, 3, 2, 2}));
}

TEST(Conv, GroupedConvAddsAGroupLoop) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 8, 6, 6}).initializer("W", F32, {12, 2, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"Y"}, "conv").attr("kernel_shape", Shape{3, 3}).attr("group", 4).attr("pads", Shape{1, 1, 1, 1});
  auto w = parse(m);
  const auto& n = node(w, "conv");
  // C/G = 2, K/G = 3: the channel axes are split by group (X [1, 4, 2, 6, 6], W [4, 3, 2, 3, 3],
  // Y [1, 4, 3, 6, 6]) so that every channel index is a bare loop (the GroupedConv tests below).
  EXPECT_EQ(n.num_dims(), 8);
  EXPECT_EQ(n.inputs[0]->shape, (std::vector<std::int64_t>{1, 4, 2, 6, 6}));
  EXPECT_EQ(map_of(n, 0), "(d0, d7, d5, ((d2 + d4) + -1), ((d1 + d3) + -1))");
  EXPECT_EQ(map_of(n, 1), "(d7, d6, d5, d4, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d7, d6, d2, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 6, 6, 3, 3, 2, 3, 4}));
  EXPECT_EQ(kinds(n), "PPPRRRPP");
}

TEST(Conv, DepthwiseHasOneInputChannelPerGroup) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 8, 6, 6}).initializer("W", F32, {8, 1, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"Y"}, "dw").attr("kernel_shape", Shape{3, 3}).attr("group", 8).attr("pads", Shape{1, 1, 1, 1});
  auto w = parse(m);
  const auto& n = node(w, "dw");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 6, 6, 3, 3, 1, 1, 8}));
  // 8 channels x 36 positions x 9 taps multiply-accumulates.
  std::int64_t macs = 1;
  for (auto s : sizes(n)) macs *= s;
  EXPECT_EQ(macs, 8 * 36 * 9);
}

TEST(Conv, OneDimensionalWithBiasAndAutoPadSameUpper) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 4, 10}).initializer("W", F32, {6, 4, 4}).initializer("B", F32, {6}).output("Y", F32);
  m.node("Conv", {"X", "W", "B"}, {"Y"}, "conv1d").attr("kernel_shape", Shape{4}).attr("auto_pad", "SAME_UPPER");
  auto w = parse(m);
  const auto& n = node(w, "conv1d");
  // SAME: out 10; total pad = 9 + 3 + 1 - 10 = 3, begin = 1 (UPPER puts the extra at the end).
  EXPECT_EQ(n.inputs.size(), 2u);  // the bias does not change the loop nest
  EXPECT_EQ(map_of(n, 0), "(d0, d3, ((d1 + d2) + -1))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 10, 4, 4, 6}));
  EXPECT_EQ(kinds(n), "PPRRP");
}

TEST(Conv, AutoPadSameLowerPutsTheExtraPadFirst) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 1, 10}).initializer("W", F32, {1, 1, 4}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"Y"}, "c").attr("kernel_shape", Shape{4}).attr("auto_pad", "SAME_LOWER");
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "c"), 0), "(d0, d3, ((d1 + d2) + -2))");
}

// Gemm: dims (m, k, n).
TEST(Gemm, PlainAndTransposedOperands) {
  ModelBuilder m("g");
  m.input("A", F32, {64, 8}).initializer("B", F32, {64, 32}).initializer("Bt", F32, {32, 8}).output("Y1", F32).output("Y2", F32);
  m.node("Gemm", {"A", "B"}, {"Y1"}, "ta").attr("transA", 1);
  m.node("Gemm", {"A", "Bt"}, {"Y2"}, "tb").attr("transB", 1);
  auto w = parse(m);
  const auto& ta = node(w, "ta");
  EXPECT_EQ(map_of(ta, 0), "(d1, d0)");
  EXPECT_EQ(sizes(ta), (std::vector<std::int64_t>{8, 64, 32}));  // the reference got [64, 8, 32]
  const auto& tb = node(w, "tb");
  EXPECT_EQ(map_of(tb, 1), "(d2, d1)");
  EXPECT_EQ(sizes(tb), (std::vector<std::int64_t>{64, 8, 32}));
  EXPECT_EQ(kinds(tb), "PRP");
}

TEST(Gemm, OptionalBiasIsNotAnOperand) {
  ModelBuilder m("g");
  m.input("A", F32, {4, 8}).initializer("B", F32, {8, 16}).initializer("C", F32, {16}).output("Y", F32);
  m.node("Gemm", {"A", "B", "C"}, {"Y"}, "fc");
  auto w = parse(m);
  EXPECT_EQ(node(w, "fc").inputs.size(), 2u);
  EXPECT_EQ(sizes(node(w, "fc")), (std::vector<std::int64_t>{4, 8, 16}));
}

// MatMul: dims (batch..., m, n, k).
TEST(MatMul, TwoDimensional) {
  ModelBuilder m("g");
  m.input("A", F32, {8, 4}).initializer("B", F32, {4, 6}).output("C", F32);
  m.node("MatMul", {"A", "B"}, {"C"}, "mm");
  auto w = parse(m);
  const auto& n = node(w, "mm");
  EXPECT_EQ(map_of(n, 0), "(d0, d2)");
  EXPECT_EQ(map_of(n, 1), "(d2, d1)");
  EXPECT_EQ(kinds(n), "PPR");
  const std::vector<Interval> foot{{0, 1}, {0, 3}};
  const std::vector<std::int64_t> tile{2, 3, 4};
  EXPECT_EQ(n.operand_mapping[0].ranges(tile), foot);
}

TEST(MatMul, BatchedAndBroadcast) {
  ModelBuilder m("g");
  m.input("A", F32, {2, 3, 8, 4}).input("B", F32, {2, 3, 4, 6}).input("P", F32, {1, 8, 4}).input("Q", F32, {5, 4, 6});
  m.input("R", F32, {2, 3, 8, 4}).input("S", F32, {3, 4, 6});
  m.output("Y1", F32).output("Y2", F32).output("Y3", F32);
  m.node("MatMul", {"A", "B"}, {"Y1"}, "batched");
  m.node("MatMul", {"P", "Q"}, {"Y2"}, "bcast");
  m.node("MatMul", {"R", "S"}, {"Y3"}, "rank_mismatch");
  auto w = parse(m);
  EXPECT_EQ(kinds(node(w, "batched")), "PPPPR");
  EXPECT_EQ(map_of(node(w, "bcast"), 0), "(0, d1, d3)");
  EXPECT_EQ(map_of(node(w, "bcast"), 1), "(d0, d3, d2)");
  EXPECT_EQ(node(w, "bcast").outputs[0]->shape, (std::vector<std::int64_t>{5, 8, 6}));
  EXPECT_EQ(map_of(node(w, "rank_mismatch"), 0), "(d0, d1, d2, d4)");
  EXPECT_EQ(map_of(node(w, "rank_mismatch"), 1), "(d1, d4, d3)");
}

TEST(MatMul, OneDimensionalOperandsDropTheirAxis) {
  ModelBuilder m("g");
  m.input("v", F32, {4}).input("M", F32, {4, 6}).input("N", F32, {3, 4}).output("y1", F32).output("y2", F32);
  m.node("MatMul", {"v", "M"}, {"y1"}, "vecmat");
  m.node("MatMul", {"N", "v"}, {"y2"}, "matvec");
  auto w = parse(m);
  const auto& vm = node(w, "vecmat");  // dims (n, k)
  EXPECT_EQ(map_of(vm, 0), "(d1)");
  EXPECT_EQ(map_of(vm, 1), "(d1, d0)");
  EXPECT_EQ(sizes(vm), (std::vector<std::int64_t>{6, 4}));
  const auto& mv = node(w, "matvec");  // dims (m, k)
  EXPECT_EQ(map_of(mv, 1), "(d1)");
  EXPECT_EQ(sizes(mv), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(kinds(mv), "PR");
}

TEST(Einsum, EquationGivesTheMapsDirectly) {
  ModelBuilder m("g");
  m.input("x", F32, {2, 5, 16}).initializer("W", F32, {16, 4, 8}).output("y", F32);
  m.node("Einsum", {"x", "W"}, {"y"}, "proj").attr("equation", "bsd,dhe->bshe");
  auto w = parse(m);
  const auto& n = node(w, "proj");
  // dims: output letters b s h e, then the contracted d.
  EXPECT_EQ(n.type, "MatMul");
  EXPECT_EQ(map_of(n, 0), "(d0, d1, d4)");
  EXPECT_EQ(map_of(n, 1), "(d4, d2, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d1, d2, d3)");
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{2, 5, 4, 8}));  // completed by the frontend
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 5, 4, 8, 16}));
  EXPECT_EQ(kinds(n), "PPPPR");
}

TEST(Einsum, ImplicitOutputAndUnaryReduction) {
  ModelBuilder m("g");
  m.input("a", F32, {3, 4}).input("b", F32, {4, 5}).output("c", F32).output("s", F32);
  m.node("Einsum", {"a", "b"}, {"c"}, "implicit").attr("equation", "ij,jk");
  m.node("Einsum", {"a"}, {"s"}, "rowsum").attr("equation", "ij->i");
  auto w = parse(m);
  EXPECT_EQ(sizes(node(w, "implicit")), (std::vector<std::int64_t>{3, 5, 4}));
  EXPECT_EQ(node(w, "rowsum").type, "ReduceSum");
  EXPECT_EQ(kinds(node(w, "rowsum")), "PR");
}

TEST(Einsum, EllipsisBroadcastsLeadingAxes) {
  ModelBuilder m("g");
  m.input("a", F32, {2, 3, 4, 5}).input("b", F32, {5, 6}).output("c", F32).output("d", F32);
  m.node("Einsum", {"a", "b"}, {"c"}, "explicit").attr("equation", "...ij,...jk->...ik");
  m.node("Einsum", {"a", "b"}, {"d"}, "implicit").attr("equation", "...ij,jk");
  auto w = parse(m);
  for (const char* name : {"explicit", "implicit"}) {
    const auto& n = node(w, name);
    // dims: the two ellipsis axes, i, k, then the contracted j.
    EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{2, 3, 4, 6})) << name;
    EXPECT_EQ(map_of(n, 0), "(d0, d1, d2, d4)") << name;
    EXPECT_EQ(map_of(n, 1), "(d4, d3)") << name;
    EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 3, 4, 6, 5})) << name;
  }
}

// X0 [1, 16, 8, 8] -> 1x1 conv "expand" (16 -> 8G) -> grouped 3x3 conv "grouped" (G groups of 8,
// pad 1) -> Relu "relu".
ModelBuilder expand_grouped_relu(std::int64_t groups) {
  const auto channels = 8 * groups;
  ModelBuilder m("g");
  m.input("X0", F32, {1, 16, 8, 8}).initializer("W1", F32, {channels, 16, 1, 1}).initializer("W2", F32, {channels, 8, 3, 3});
  m.output("Y", F32);
  m.node("Conv", {"X0", "W1"}, {"X"}, "expand").attr("kernel_shape", Shape{1, 1});
  m.node("Conv", {"X", "W2"}, {"T"}, "grouped").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1}).attr("group", groups);
  m.node("Relu", {"T"}, {"Y"}, "relu");
  return m;
}

TEST(GroupedConv, EightChannelsPerGroupForTwoFourAndThirteenGroups) {
  for (std::int64_t G : {2, 4, 13}) {
    auto w = parse(expand_grouped_relu(G));
    EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u) << G;
    const auto& n = node(w, "grouped");
    // Every channel index is a bare loop: X[b, g, c, ...], W[g, k, c, fy, fx], Y[b, g, k, oy, ox].
    EXPECT_EQ(map_of(n, 0), "(d0, d7, d5, ((d2 + d4) + -1), ((d1 + d3) + -1))") << G;
    EXPECT_EQ(map_of(n, 1), "(d7, d6, d5, d4, d3)") << G;
    EXPECT_EQ(map_of(n, 2), "(d0, d7, d6, d2, d1)") << G;
    EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 8, 8, 3, 3, 8, 8, G})) << G;
    EXPECT_EQ(kinds(n), "PPPRRRPP") << G;
    // 8G output channels x 64 positions x 9 taps x 8 input channels.
    std::int64_t macs = 1;
    for (auto s : sizes(n)) macs *= s;
    EXPECT_EQ(macs, 8 * G * 64 * 9 * 8) << G;
    // The 1x1 producer's output channel loop is split into (group, channel): dims
    // (b, ox, oy, fx, fy, c, k0, k1) writing X[b, k0, k1, oy, ox].
    const auto& e = node(w, "expand");
    EXPECT_EQ(e.outputs[0]->shape, (std::vector<std::int64_t>{1, G, 8, 8, 8})) << G;
    EXPECT_EQ(map_of(e, 2), "(d0, d6, d7, d2, d1)") << G;
    EXPECT_EQ(sizes(e), (std::vector<std::int64_t>{1, 8, 8, 1, 1, 16, G, 8})) << G;
    // The Relu reads the convolution's output with one loop per split axis.
    const auto& r = node(w, "relu");
    EXPECT_EQ(r.inputs[0]->shape, (std::vector<std::int64_t>{1, G, 8, 8, 8})) << G;
    EXPECT_EQ(map_of(r, 0), "(d0, d1, d2, d3, d4)") << G;
  }
}

TEST(GroupedConv, ProducerConvolutionAndConsumerShareTheGroupAndChannelDims) {
  // The failure this fixes: the consumer's single channel loop (extent 104) was unified with
  // neither g nor k of the convolution's g*8 + k, so tiles of the two disagreed ("axis 1 has
  // extent 8 but loop d1 has size 52"). Now g and k are the Relu's d1 and d2.
  auto w = parse(expand_grouped_relu(13));
  const auto& u = w.unified_dimensions();
  const auto gi = w.index_of("grouped"), ri = w.index_of("relu"), ei = w.index_of("expand");
  const auto g = u.dims_of(gi, w.node(gi).num_dims());
  const auto r = u.dims_of(ri, w.node(ri).num_dims());
  const auto e = u.dims_of(ei, w.node(ei).num_dims());
  EXPECT_EQ(g[7], r[1]);  // group
  EXPECT_EQ(g[6], r[2]);  // output channel in the group
  EXPECT_EQ(g[7], e[6]);  // the producer's group
  EXPECT_EQ(u.dim_size[static_cast<std::size_t>(g[7])], 13);
  EXPECT_EQ(u.dim_size[static_cast<std::size_t>(g[6])], 8);
}

TEST(GroupedConv, DepthwiseNeedsNoSplit) {
  // One channel per group: X[b, g], W[g, c], Y[b, g] are bare already; no layout op is made.
  ModelBuilder m("g");
  m.input("X", F32, {1, 32, 8, 8}).initializer("W", F32, {32, 1, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"Y"}, "dw").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1}).attr("group", 32);
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& n = node(w, "dw");
  EXPECT_EQ(n.inputs[0]->shape, (std::vector<std::int64_t>{1, 32, 8, 8}));
  EXPECT_EQ(map_of(n, 0), "(d0, d7, ((d2 + d4) + -1), ((d1 + d3) + -1))");
  EXPECT_EQ(map_of(n, 1), "(d7, d5, d4, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d7, d2, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 8, 8, 3, 3, 1, 1, 32}));
}

TEST(GroupedConv, ChannelMultiplierSplitsOnlyTheOutput) {
  // G = C = 4 with K = 8 (two outputs per input channel): X[b, g] stays, Y is split (4, 2).
  ModelBuilder m("g");
  m.input("X", F32, {1, 4, 6, 6}).initializer("W", F32, {8, 1, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"T"}, "dw").attr("kernel_shape", Shape{3, 3}).attr("group", 4);
  m.node("Relu", {"T"}, {"Y"}, "relu");
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& n = node(w, "dw");
  EXPECT_EQ(map_of(n, 0), "(d0, d7, (d2 + d4), (d1 + d3))");
  EXPECT_EQ(map_of(n, 2), "(d0, d7, d6, d2, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 4, 4, 3, 3, 1, 2, 4}));
}

TEST(GroupedConv, ConcatenatedInputKeepsAFusionEdgeAndStillParses) {
  // A Concat along channels writes the channel axis at d1 - offset, which cannot be split: the
  // reshape to groups stays a FusionEdge and the convolution reads its grouped view.
  ModelBuilder m("g");
  m.input("A", F32, {1, 8, 6, 6}).input("B", F32, {1, 8, 6, 6}).initializer("W", F32, {16, 8, 3, 3}).output("Y", F32);
  m.node("Concat", {"A", "B"}, {"X"}, "cat").attr("axis", 1);
  m.node("Conv", {"X", "W"}, {"Y"}, "grouped").attr("kernel_shape", Shape{3, 3}).attr("group", 2);
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 1u);
  const auto& n = node(w, "grouped");
  EXPECT_EQ(n.inputs[0]->shape, (std::vector<std::int64_t>{1, 2, 8, 6, 6}));
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 4, 4, 3, 3, 8, 8, 2}));
}


}  // namespace
