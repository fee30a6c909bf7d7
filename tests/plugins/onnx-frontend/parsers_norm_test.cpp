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

TEST(Normalization, LayerNormMeanAndInvStdDevAreReductionsOverTheNormalisedAxes) {
  // ONNX's test_layer_normalization_3d_axis1_epsilon: X [2, 3, 5], axis 1: Mean and InvStdDev are
  // [2, 1, 1] (X.shape[:1] then ones), reductions over d1, d2 read at 0.
  ModelBuilder m("g");
  m.input("X", F32, {2, 3, 5}).initializer("scale", F32, {3, 5}).initializer("bias", F32, {3, 5});
  m.output("Y", F32).output("Mean", F32).output("InvStdDev", F32);
  m.node("LayerNormalization", {"X", "scale", "bias"}, {"Y", "Mean", "InvStdDev"}, "ln").attr("axis", 1);
  auto w = parse(m);
  EXPECT_EQ(node(w, "ln").reduction_axes, (std::vector<int>{1, 2}));
  for (const char* stat : {"ln_mean", "ln_inv_std_dev"}) {
    const auto& n = node(w, stat);
    EXPECT_EQ(n.inputs[0]->name, "X") << stat;
    EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{2, 1, 1})) << stat;
    EXPECT_EQ(map_of(n, 1), "(d0, 0, 0)") << stat;
    EXPECT_EQ(kinds(n), "PRR") << stat;
  }
  EXPECT_EQ(graph_output_shape(w, "Mean"), (std::vector<std::int64_t>{2, 1, 1}));
  EXPECT_EQ(node(w, "ln_mean").type, "ReduceMean");
}

TEST(Normalization, TrainingBatchNormWritesRunningStatisticsPerChannel) {
  // ONNX's test_batchnorm_example_training_mode: X [2, 3, 4, 5], running mean and var [3] over
  // every axis but the channel.
  ModelBuilder m("g", 15);
  m.input("X", F32, {2, 3, 4, 5}).output("Y", F32).output("rm", F32).output("rv", F32);
  for (const char* p : {"s", "b", "mean", "var"}) m.initializer(p, F32, {3});
  m.node("BatchNormalization", {"X", "s", "b", "mean", "var"}, {"Y", "rm", "rv"}, "bn").attr("training_mode", 1);
  auto w = parse(m);
  EXPECT_EQ(sizes(node(w, "bn")), (std::vector<std::int64_t>{2, 3, 4, 5}));
  for (const char* stat : {"bn_running_mean", "bn_running_var"}) {
    const auto& n = node(w, stat);
    EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{3})) << stat;
    EXPECT_EQ(map_of(n, 1), "(d1)") << stat;
    EXPECT_EQ(kinds(n), "RPRR") << stat;
  }
}

}  // namespace
