// GroupNormalization (parsers_group_norm.cpp) with hand-derived axes and shapes.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// (2, 6, 4, 4) in 3 groups: normalised over axes 1, 2, 3 (channels and positions; the statistics
// per group), Y of X's shape from our opset-18 shape rule.
TEST(GroupNormalization, NormalisesChannelsAndPositions) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {2, 6, 4, 4}).initializer("s", F32, {3}).initializer("b", F32, {3}).output("Y", F32);
  m.node("GroupNormalization", {"X", "s", "b"}, {"Y"}, "gn").attr("num_groups", 3);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 6, 4, 4}));
  const auto& n = node(w, "gn");
  EXPECT_EQ(n.kind, NodeKind::Normalization);
  EXPECT_EQ(n.reduction_axes, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 6, 4, 4}));
}

TEST(GroupNormalization, GroupsThatDoNotDivideTheChannelsAreAnError) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {2, 6, 4, 4}).initializer("s", F32, {4}).initializer("b", F32, {4}).output("Y", F32);
  m.node("GroupNormalization", {"X", "s", "b"}, {"Y"}, "gn").attr("num_groups", 4);
  expect_error([&] { parse(m); }, {"gn", "num_groups (4) must divide the 6 channels"});
}

}  // namespace
