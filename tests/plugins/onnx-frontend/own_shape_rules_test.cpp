// The shape rules of our own (own_shape_rules.cpp) through the frontend: models of the opsets whose
// schemas libonnx 1.12 lacks or has in an older form, with no declared output shapes; every
// expected shape derived by hand from the operator's definition.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// ReduceMean-18 takes its axes as an input: (2, 3, 4) over axis 1 without keepdims is (2, 4) (the
// opset-13 rule, reading no axes attribute, would reduce everything).
TEST(OwnShapeRules, ReduceAxesAreAnInputFromOpset18) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {2, 3, 4}).int_initializer("axes", {1}).output("Y", F32);
  m.node("ReduceMean", {"X", "axes"}, {"Y"}, "mean").attr("keepdims", 0);
  EXPECT_EQ(graph_output_shape(parse(m), "Y"), (std::vector<std::int64_t>{2, 4}));
}

// Pad-18 over axes [1] only: (2, 3) with pads [1, 2] is (2, 6).
TEST(OwnShapeRules, PadAxesInput) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {2, 3}).int_initializer("pads", {1, 2}).int_initializer("axes", {1}).output("Y", F32);
  m.node("Pad", {"X", "pads", "", "axes"}, {"Y"}, "pad");
  EXPECT_EQ(graph_output_shape(parse(m), "Y"), (std::vector<std::int64_t>{2, 6}));
}

// Split-18 num_outputs 3 over an extent of 7: parts of ceil(7/3) = 3, 3 and the rest 1.
TEST(OwnShapeRules, SplitNumOutputsGivesASmallerLastPart) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {7, 2}).output("a", F32).output("b", F32).output("c", F32);
  m.node("Split", {"X"}, {"a", "b", "c"}, "split").attr("num_outputs", 3);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "a"), (std::vector<std::int64_t>{3, 2}));
  EXPECT_EQ(graph_output_shape(w, "b"), (std::vector<std::int64_t>{3, 2}));
  EXPECT_EQ(graph_output_shape(w, "c"), (std::vector<std::int64_t>{1, 2}));
}

// Resize-18 sizes [8, 8] over axes [2, 3] of (1, 1, 4, 6), not_larger: scale min(8/4, 8/6) = 4/3,
// so (1, 1, round(5.33) = 5, round(8) = 8).
TEST(OwnShapeRules, ResizeKeepsTheAspectRatio) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {1, 1, 4, 6}).int_initializer("sizes", {8, 8}).output("Y", F32);
  m.node("Resize", {"X", "", "", "sizes"}, {"Y"}, "resize")
      .attr("axes", std::vector<std::int64_t>{2, 3})
      .attr("keep_aspect_ratio_policy", "not_larger");
  EXPECT_EQ(graph_output_shape(parse(m), "Y"), (std::vector<std::int64_t>{1, 1, 5, 8}));
}

// AveragePool-19 with dilations 2 and kernel 2: an effective window of 3 over 5 gives 3.
TEST(OwnShapeRules, AveragePoolDilations) {
  ModelBuilder m("g", 19);
  m.input("X", F32, {1, 1, 5, 5}).output("Y", F32);
  m.node("AveragePool", {"X"}, {"Y"}, "pool")
      .attr("kernel_shape", std::vector<std::int64_t>{2, 2})
      .attr("dilations", std::vector<std::int64_t>{2, 2});
  EXPECT_EQ(graph_output_shape(parse(m), "Y"), (std::vector<std::int64_t>{1, 1, 3, 3}));
}

// ceil_mode, 5 wide, pads 1 + 1, kernel 2, stride 2: windows would start at input index -1, 1, 3
// and 5; the last starts in the right padding (past index 4) and is dropped: 3, not 4.
TEST(OwnShapeRules, CeilModeDropsAWindowStartingInThePadding) {
  ModelBuilder m("g", 17);
  m.input("X", F32, {1, 1, 5, 5}).output("Y", F32);
  m.node("MaxPool", {"X"}, {"Y"}, "pool")
      .attr("kernel_shape", std::vector<std::int64_t>{2, 2})
      .attr("strides", std::vector<std::int64_t>{2, 2})
      .attr("pads", std::vector<std::int64_t>{1, 1, 1, 1})
      .attr("ceil_mode", 1);
  EXPECT_EQ(graph_output_shape(parse(m), "Y"), (std::vector<std::int64_t>{1, 1, 3, 3}));
}

// SwiGLU (no schema in libonnx) broadcasts its two inputs: (3, 1, 4) and (5, 4) give (3, 5, 4).
TEST(OwnShapeRules, SwiGLUBroadcasts) {
  ModelBuilder m("g", 26);
  m.input("a", F32, {3, 1, 4}).input("b", F32, {5, 4}).output("Y", F32);
  m.node("SwiGLU", {"a", "b"}, {"Y"}, "glu");
  EXPECT_EQ(graph_output_shape(parse(m), "Y"), (std::vector<std::int64_t>{3, 5, 4}));
}

TEST(OwnShapeRules, ADeclaredShapeThatDisagreesIsAnError) {
  ModelBuilder m("g", 19);
  m.input("X", F32, {1, 1, 5, 5}).output("Y", F32, {1, 1, 4, 4}, true);
  m.node("AveragePool", {"X"}, {"Y"}, "pool")
      .attr("kernel_shape", std::vector<std::int64_t>{2, 2})
      .attr("dilations", std::vector<std::int64_t>{2, 2});
  expect_error([&] { parse(m); }, {"pool", "output 'Y' is declared (1x1x4x4) but the operator's shape rule gives (1x1x3x3)"});
}

// A window of 3 * 2^62 + 1 does not fit in int64: an error naming the node, not a wrapped extent.
TEST(OwnShapeRules, AnOverflowingWindowIsAnError) {
  ModelBuilder m("g", 19);
  m.input("X", F32, {1, 1, 5}).output("Y", F32);
  m.node("AveragePool", {"X"}, {"Y"}, "pool")
      .attr("kernel_shape", std::vector<std::int64_t>{4})
      .attr("dilations", std::vector<std::int64_t>{std::int64_t{1} << 62});
  expect_error([&] { parse(m); }, {"pool", "an extent overflows"});
}

TEST(OwnShapeRules, ASplitWithoutOutputsIsAnError) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {7, 2}).output("X2", F32);
  m.node("Split", {"X"}, {}, "split").attr("num_outputs", 0);
  m.node("Relu", {"X"}, {"X2"}, "relu");
  expect_error([&] { parse(m); }, {"split", "the node has no outputs"});
}

TEST(OwnShapeRules, SplitPartsThatDoNotAddUpAreAnError) {
  ModelBuilder m("g", 18);
  m.input("X", F32, {7, 2}).int_initializer("split", {3, 3}).output("a", F32).output("b", F32);
  m.node("Split", {"X", "split"}, {"a", "b"}, "split");
  expect_error([&] { parse(m); }, {"split", "the parts do not add up to the axis extent 7 over 2 outputs"});
}

}  // namespace
