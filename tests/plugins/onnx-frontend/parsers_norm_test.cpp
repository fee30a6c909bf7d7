// The normalization parsers (parsers_norm.cpp) against hand-derived maps, loop sizes and iterator
// kinds (workload spec §2.4; where the reference is wrong, spec §9, the correct semantics).
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(Normalization, BatchNormReadsPerChannelParameters) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 8, 4, 4}).output("Y", F32);
  for (const char* p : {"s", "b", "mean", "var"}) m.initializer(p, F32, {8});
  m.node("BatchNormalization", {"X", "s", "b", "mean", "var"}, {"Y"}, "bn");
  auto w = parse(m);
  const auto& n = node(w, "bn");
  EXPECT_EQ(n.inputs.size(), 5u);
  EXPECT_EQ(map_of(n, 2), "(d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 8, 4, 4}));
  EXPECT_EQ(kinds(n), "PPPP");
}

TEST(Normalization, ScalarAndNegativeAxesAreHonoured) {  // reference defect §9 #1
  ModelBuilder m("g");
  m.input("X", F32, {4, 10}).input("Z", F32, {2, 3, 5}).output("a", F32).output("b", F32).output("c", F32).output("d", F32);
  m.node("Softmax", {"X"}, {"a"}, "softmax0").attr("axis", 0);
  m.node("LayerNormalization", {"Z"}, {"b"}, "ln1").attr("axis", 1);
  m.node("LpNormalization", {"X"}, {"c"}, "lp0").attr("axis", 0);
  m.node("Softmax", {"Z"}, {"d"}, "softmax_neg").attr("axis", -2);
  auto w = parse(m);
  EXPECT_EQ(node(w, "softmax0").kind, NodeKind::Normalization);
  EXPECT_EQ(node(w, "softmax0").reduction_axes, (std::vector<int>{0}));
  EXPECT_EQ(node(w, "ln1").reduction_axes, (std::vector<int>{1, 2}));
  EXPECT_EQ(node(w, "lp0").reduction_axes, (std::vector<int>{0}));
  EXPECT_EQ(node(w, "softmax_neg").reduction_axes, (std::vector<int>{1}));
}

TEST(Normalization, HardmaxNormalisesItsAxisAsSoftmax) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 3, 5}).output("Y", F32);
  m.node("Hardmax", {"X"}, {"Y"}, "hm").attr("axis", 1);
  auto w = parse(m);
  EXPECT_EQ(node(w, "hm").kind, NodeKind::Normalization);
  EXPECT_EQ(node(w, "hm").reduction_axes, (std::vector<int>{1}));
}

TEST(Normalization, LegacySoftmaxNormalisesEverythingFromItsAxis) {
  ModelBuilder m("g", 11);
  m.input("X", F32, {2, 3, 5}).output("Y", F32);
  m.node("Softmax", {"X"}, {"Y"}, "sm");  // opset 11: default axis 1, coerced to 2-D
  auto w = parse(m);
  EXPECT_EQ(node(w, "sm").reduction_axes, (std::vector<int>{1, 2}));
}

}  // namespace
