// DeformConv (parsers_deform_conv.cpp) against hand-derived shapes, loops and MACs.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// X (1, 2, 5, 5), W (3, 2, 3, 3), offsets (1, 9 taps * 2 coordinates, 3, 3): Y (1, 3, 3, 3) by our
// opset-19 rule; loops (b, k, oy, ox, c, fy, fx) = (1, 3, 3, 3, 2, 3, 3), 486 MACs, as a Conv's.
TEST(DeformConv, ConvolvesWithSamplingRoutedByTheOffsets) {
  ModelBuilder m("g", 19);
  m.input("X", F32, {1, 2, 5, 5}).input("W", F32, {3, 2, 3, 3}).input("off", F32, {1, 18, 3, 3}).output("Y", F32);
  m.node("DeformConv", {"X", "W", "off"}, {"Y"}, "dc").attr("kernel_shape", std::vector<std::int64_t>{3, 3});
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{1, 3, 3, 3}));
  const auto& n = node(w, "dc");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 3, 3, 2, 3, 3}));
  EXPECT_EQ(kinds(n), "PPPPRRR");
  EXPECT_EQ(total_macs(w), 486);
  EXPECT_EQ(access_relation(n, 0).kind, AccessKind::DataDependent);
  EXPECT_EQ(access_relation(n, 0).index_tensor, "off");
  EXPECT_EQ(access_relation(n, 2).pieces.size(), 2u);  // both coordinates of each tap's offset
}

TEST(DeformConv, GroupsAreRejected) {
  ModelBuilder m("g", 19);
  m.input("X", F32, {1, 2, 5, 5}).input("W", F32, {2, 1, 3, 3}).input("off", F32, {1, 18, 3, 3}).output("Y", F32, {1, 2, 3, 3}, true);
  m.node("DeformConv", {"X", "W", "off"}, {"Y"}, "dc").attr("group", 2);
  expect_error([&] { parse(m); }, {"dc", "group > 1 is not supported"});
}

}  // namespace
