// Grouped convolution with groups other than 1 or depthwise (RegNet, ResNeXt): the convolution
// reads and writes channel axes split into (groups, channels per group), and layout folding
// splits its neighbours' channel loops the same way, so that producer, convolution and consumer
// share bare channel loops (conv_layout.hpp). Conv dims: (b, ox, oy, fx, fy, c, k, g).
#include <stream/ir/dimensions.hpp>

#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

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
