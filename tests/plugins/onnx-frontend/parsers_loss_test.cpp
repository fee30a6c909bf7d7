// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (parsers_loss.cpp): one loop per target
// position, the class read routed by the target; loop sizes, kinds and shapes derived by hand.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// input (2, 5 classes, 3), target (2, 3), weight (5), reduction none: a loss per position (2, 3).
TEST(Loss, NllLossWithoutReductionWritesOnePerPosition) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 5, 3}).input("T", I64, {2, 3}).input("W", F32, {5}).output("L", F32);
  m.node("NegativeLogLikelihoodLoss", {"X", "T", "W"}, {"L"}, "nll").attr("reduction", "none");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "L"), (std::vector<std::int64_t>{2, 3}));
  const auto& n = node(w, "nll");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(kinds(n), "PP");
  EXPECT_EQ(map_of(n, 0), "(d0, 0, d1)");
  EXPECT_EQ(map_of(n, 1), "(0)");
  EXPECT_EQ(access_relation(n, 0).index_tensor, "T");
  EXPECT_EQ(access_relation(n, 1).kind, AccessKind::DataDependent);
}

// The default reduction (mean) gives a scalar: both loops are reductions.
TEST(Loss, NllLossMeanIsAScalar) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 5, 3}).input("T", I64, {2, 3}).output("L", F32);
  m.node("NegativeLogLikelihoodLoss", {"X", "T"}, {"L"}, "nll");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "L"), (std::vector<std::int64_t>{}));
  EXPECT_EQ(kinds(node(w, "nll")), "RR");
}

// SoftmaxCrossEntropyLoss = LogSoftmax over the classes (its log_prob output) + the loss.
TEST(Loss, SoftmaxCrossEntropyIsALogSoftmaxThenTheLoss) {
  ModelBuilder m("g");
  m.input("X", F32, {4, 7}).input("T", I64, {4}).output("L", F32).output("P", F32);
  m.node("SoftmaxCrossEntropyLoss", {"X", "T"}, {"L", "P"}, "sce").attr("reduction", "sum");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "P"), (std::vector<std::int64_t>{4, 7}));
  EXPECT_EQ(graph_output_shape(w, "L"), (std::vector<std::int64_t>{}));
  EXPECT_EQ(node(w, "sce_log_softmax").reduction_axes, (std::vector<int>{1}));
  EXPECT_EQ(sizes(node(w, "sce")), (std::vector<std::int64_t>{4}));
}

TEST(Loss, ATargetOfAnotherShapeIsAnError) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 5, 3}).input("T", I64, {2, 4}).output("L", F32, {}, true);
  m.node("NegativeLogLikelihoodLoss", {"X", "T"}, {"L"}, "nll");
  expect_error([&] { parse(m); }, {"nll", "the target must be the input's shape without the class axis"});
}

}  // namespace
