// CausalConvWithState (parsers_causal_conv.cpp) against hand-derived shapes, maps and MACs.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// (2, 4 channels, 8 positions), kernel 4, a past state of 3: the convolution is 2*4*8*4 = 256
// MACs; the present state (2, 4, 3) holds input positions 5..7 (t + 8 - 3), past at t + 8 (none).
TEST(CausalConv, ConvolvesOverThePastStateAndKeepsTheLastPositions) {
  ModelBuilder m("g", 27);
  m.input("X", F32, {2, 4, 8}).input("W", F32, {4, 1, 4}).input("S", F32, {2, 4, 3});
  m.output("Y", F32).output("P", F32);
  m.node("CausalConvWithState", {"X", "W", "", "S"}, {"Y", "P"}, "cc").attr("activation", "silu");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 4, 8}));
  EXPECT_EQ(graph_output_shape(w, "P"), (std::vector<std::int64_t>{2, 4, 3}));
  EXPECT_EQ(total_macs(w), 256);
  const auto& conv = node(w, "cc_conv");
  EXPECT_EQ(sizes(conv), (std::vector<std::int64_t>{2, 4, 8, 4}));
  EXPECT_EQ(map_of(conv, 0), "(d0, d1, ((d2 + d3) + -3))");
  EXPECT_EQ(access_relation(conv, 0).kind, AccessKind::PiecewiseAffine);
  EXPECT_EQ(node(w, "cc").type, "Silu");
  EXPECT_EQ(map_of(node(w, "cc_present"), 1), "(d0, d1, (d2 + 5))");
}

TEST(CausalConv, AWeightThatIsNotDepthwiseIsAnError) {
  ModelBuilder m("g", 27);
  m.input("X", F32, {2, 4, 8}).input("W", F32, {4, 2, 4}).output("Y", F32, {2, 4, 8}, true);
  m.node("CausalConvWithState", {"X", "W"}, {"Y"}, "cc");
  expect_error([&] { parse(m); }, {"cc", "expects input (B, C, L) and a depthwise weight (C, 1, K)"});
}

}  // namespace
