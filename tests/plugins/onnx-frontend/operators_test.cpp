// Every built-in operator parser against hand-derived maps, loop sizes and iterator kinds
// (workload spec §2.4; where the reference is wrong, spec §9, the correct semantics).
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
  // Y [1, 4, 3, 6, 6]) so that every channel index is a bare loop (grouped_conv_test.cpp).
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

// Pooling: dims (b, c, oy, ox, fy, fx) with window_extents for the kernel loops.
TEST(Pool, MaxPoolUsesKernelShapeStridesPerAxisAndAsymmetricPads) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 4, 9, 10}).output("Y", F32);
  m.node("MaxPool", {"X"}, {"Y"}, "pool").attr("kernel_shape", Shape{3, 2}).attr("strides", Shape{2, 1}).attr("pads", Shape{1, 0, 0, 1});
  auto w = parse(m);
  const auto& n = node(w, "pool");
  // H: (9 + 1 - 3)/2 + 1 = 4; W: (10 + 1 - 2)/1 + 1 = 10.
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 4, 4, 10}));
  EXPECT_EQ(map_of(n, 0), "(d0, d1, (((d2 * 2) + d4) + -1), (d3 + d5))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 4, 4, 10, 3, 2}));
  EXPECT_EQ(kinds(n), "PPPPRR");
}

TEST(Pool, AveragePoolCeilModeTakesTheInferredExtent) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 6, 6}).output("Y", F32);
  m.node("AveragePool", {"X"}, {"Y"}, "avg").attr("kernel_shape", Shape{3, 3}).attr("strides", Shape{2, 2}).attr("ceil_mode", 1);
  auto w = parse(m);
  // ceil((6 - 3)/2) + 1 = 3 (floor mode would give 2).
  EXPECT_EQ(sizes(node(w, "avg")), (std::vector<std::int64_t>{1, 2, 3, 3, 3, 3}));
}

TEST(Pool, GlobalPoolsReduceEverySpatialAxis) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 512, 7, 7}).output("A", F32).output("M", F32);
  m.node("GlobalAveragePool", {"X"}, {"A"}, "gap");
  m.node("GlobalMaxPool", {"X"}, {"M"}, "gmp");
  auto w = parse(m);
  EXPECT_EQ(sizes(node(w, "gap")), (std::vector<std::int64_t>{1, 512, 1, 1, 7, 7}));
  EXPECT_EQ(map_of(node(w, "gap"), 0), "(d0, d1, d4, d5)");
  EXPECT_EQ(kinds(node(w, "gmp")), "PPPPRR");
}

TEST(Pool, LrnIsAWindowedChannelReduction) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 16, 4, 4}).output("Y", F32);
  m.node("LRN", {"X"}, {"Y"}, "lrn").attr("size", 5);
  auto w = parse(m);
  const auto& n = node(w, "lrn");
  EXPECT_EQ(map_of(n, 0), "(d0, ((d1 + d4) + -2), d2, d3)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 16, 4, 4, 5}));
  EXPECT_EQ(kinds(n), "PPPPR");
}

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

TEST(Normalization, LegacySoftmaxNormalisesEverythingFromItsAxis) {
  ModelBuilder m("g", 11);
  m.input("X", F32, {2, 3, 5}).output("Y", F32);
  m.node("Softmax", {"X"}, {"Y"}, "sm");  // opset 11: default axis 1, coerced to 2-D
  auto w = parse(m);
  EXPECT_EQ(node(w, "sm").reduction_axes, (std::vector<int>{1, 2}));
}

TEST(Movement, SliceReadsAtItsClampedStartWithItsStep) {
  ModelBuilder m("g");
  m.input("X", F32, {10, 8}).output("Y", F32).output("Z", F32);
  m.int_initializer("starts", {2, -4}).int_initializer("ends", {6, 100}).int_initializer("axes", {0, 1}).int_initializer("steps", {2, 1});
  m.int_initializer("s2", {-100}).int_initializer("e2", {3}).int_initializer("a2", {0});
  m.node("Slice", {"X", "starts", "ends", "axes", "steps"}, {"Y"}, "slice");
  m.node("Slice", {"X", "s2", "e2", "a2"}, {"Z"}, "clamped");
  auto w = parse(m);
  const auto& n = node(w, "slice");
  EXPECT_EQ(map_of(n, 0), "(((d0 * 2) + 2), (d1 + 4))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(kinds(n), "PP");  // the reference called the offset axis SEQUENTIAL
  EXPECT_EQ(map_of(node(w, "clamped"), 0), "(d0, d1)");  // -100 clamps to 0
  EXPECT_EQ(sizes(node(w, "clamped")), (std::vector<std::int64_t>{3, 8}));  // the slice's extent, not the source's
}

TEST(Movement, GatherIsDataDependentAndHonoursItsAxis) {
  ModelBuilder m("g");
  m.input("X", F32, {128, 32}).input("idx", I64, {3}).input("j", I64, {}).output("Y", F32).output("Z", F32);
  m.node("Gather", {"X", "idx"}, {"Y"}, "gather1").attr("axis", 1);
  m.node("Gather", {"X", "j"}, {"Z"}, "gather_scalar");
  auto w = parse(m);
  const auto& g = node(w, "gather1");
  // dims (i, m, src): the data reads its axis 1 at the source position.
  EXPECT_EQ(g.outputs[0]->shape, (std::vector<std::int64_t>{128, 3}));
  EXPECT_EQ(map_of(g, 0), "(d0, d2)");
  EXPECT_EQ(sizes(g), (std::vector<std::int64_t>{128, 3, 32}));
  EXPECT_EQ(kinds(g), "PPR");
  EXPECT_EQ(access_relation(g, 0).kind, AccessKind::DataDependent);
  const auto& s = node(w, "gather_scalar");  // a scalar index removes the axis
  EXPECT_EQ(map_of(s, 0), "(d1, d0)");
  EXPECT_EQ(sizes(s), (std::vector<std::int64_t>{32, 128}));
}

TEST(Movement, ConcatWritesEachInputAtItsOffset) {
  ModelBuilder m("g");
  m.input("a", F32, {1, 8, 4, 4}).input("b", F32, {1, 24, 4, 4}).output("y", F32);
  m.node("Concat", {"a", "b"}, {"y"}, "cat").attr("axis", 1);
  auto w = parse(m);
  const auto& n = node(w, "cat");
  EXPECT_EQ(map_of(n, 0), "(d0, d1, d2, d3)");
  EXPECT_EQ(map_of(n, 1), "(d0, (d1 + -8), d2, d3)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 32, 4, 4}));
  EXPECT_EQ(access_relation(n, 1).kind, AccessKind::PiecewiseAffine);
}

TEST(Movement, PadShiftsTheReadByTheBeginPad) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 3, 4, 4}).output("Y", F32).int_initializer("pads", {0, 0, 1, 2, 0, 0, 1, 0});
  m.node("Pad", {"X", "pads"}, {"Y"}, "pad");
  auto w = parse(m);
  const auto& n = node(w, "pad");
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 3, 6, 6}));
  EXPECT_EQ(map_of(n, 0), "(d0, d1, (d2 + -1), (d3 + -2))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 6, 6}));
}

TEST(Movement, ExpandBroadcastsAndSplitReadsEachPart) {
  ModelBuilder m("g");
  m.input("X", F32, {4, 1}).input("S", F32, {2, 10}).output("E", F32).output("p0", F32).output("p1", F32);
  m.int_initializer("shape", {3, 4, 5}).int_initializer("split", {4, 6});
  m.node("Expand", {"X", "shape"}, {"E"}, "expand");
  m.node("Split", {"S", "split"}, {"p0", "p1"}, "split").attr("axis", 1);
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "expand"), 0), "(d1, 0)");
  EXPECT_EQ(sizes(node(w, "expand")), (std::vector<std::int64_t>{3, 4, 5}));
  EXPECT_EQ(map_of(node(w, "split_0"), 0), "(d0, d1)");
  EXPECT_EQ(map_of(node(w, "split_1"), 0), "(d0, (d1 + 4))");
  EXPECT_EQ(sizes(node(w, "split_1")), (std::vector<std::int64_t>{2, 6}));
}

TEST(Reduce, KeepdimsBothWays) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 3, 4}).output("a", F32).output("b", F32).output("c", F32).int_initializer("ax", {1});
  m.node("ReduceMean", {"X"}, {"a"}, "mean_keep").attr("axes", Shape{1});
  m.node("ReduceSum", {"X", "ax"}, {"b"}, "sum_drop").attr("keepdims", 0);
  m.node("ReduceMax", {"X"}, {"c"}, "max_all").attr("keepdims", 0);
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "mean_keep"), 1), "(d0, 0, d2)");
  EXPECT_EQ(kinds(node(w, "mean_keep")), "PRP");
  EXPECT_EQ(map_of(node(w, "sum_drop"), 1), "(d0, d2)");
  EXPECT_EQ(node(w, "sum_drop").outputs[0]->shape, (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(kinds(node(w, "max_all")), "RRR");
}

TEST(Elementwise, BroadcastMapsAreRightAligned) {
  ModelBuilder m("g");
  m.input("A", F32, {2, 4, 8}).input("B", F32, {4, 1}).input("C", F32, {8}).input("P", F32, {4, 1}).input("Q", F32, {1, 8});
  m.input("M", F32, {4, 8}).initializer("s", F32, {1, 1}).initializer("e", F32, {});
  m.output("y1", F32).output("y2", F32).output("y3", F32).output("y4", F32).output("y5", F32);
  m.node("Add", {"A", "B"}, {"y1"}, "add_col");
  m.node("Add", {"A", "C"}, {"y2"}, "add_bias");
  m.node("Mul", {"P", "Q"}, {"y3"}, "outer");
  m.node("Mul", {"M", "s"}, {"y4"}, "scale");
  m.node("Pow", {"M", "e"}, {"y5"}, "pow");
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "add_col"), 1), "(d1, 0)");
  EXPECT_EQ(map_of(node(w, "add_bias"), 1), "(d2)");
  EXPECT_EQ(map_of(node(w, "outer"), 0), "(d0, 0)");
  EXPECT_EQ(map_of(node(w, "outer"), 1), "(0, d1)");
  EXPECT_EQ(map_of(node(w, "scale"), 0), "(d0, d1)");
  EXPECT_EQ(map_of(node(w, "scale"), 1), "(0, 0)");
  EXPECT_EQ(map_of(node(w, "pow"), 1), "()");
  EXPECT_EQ(kinds(node(w, "add_col")), "PPP");
}

TEST(Elementwise, BroadcastMismatchIsAnErrorNamingTheTensor) {
  ModelBuilder m("g");
  m.input("A", F32, {4, 8}).input("B", F32, {3, 8}).output("y", F32, {4, 8});
  m.node("Sub", {"A", "B"}, {"y"}, "bad_sub");
  expect_error([&] { (void)parse(m); }, {"bad_sub", "B", "broadcast"});
}

TEST(Elementwise, EveryUnaryAndVariadicOperatorParses) {
  const std::vector<std::string> unary{"Relu", "Gelu", "Sigmoid", "Tanh", "Exp", "Sqrt", "Erf", "LeakyRelu", "HardSigmoid",
                                       "HardSwish", "Neg", "Abs", "Reciprocal", "Clip"};
  ModelBuilder m("g");
  m.input("X", F32, {3, 5}).input("Z", F32, {5}).initializer("lo", F32, {}).initializer("hi", F32, {});
  std::vector<std::string> outs;
  for (const auto& op : unary) {
    std::vector<std::string> ins{"X"};
    if (op == "Clip") ins = {"X", "lo", "hi"};
    m.node(op, ins, {"u_" + op}, op);
    m.output("u_" + op, F32);
  }
  for (const std::string op : {"Sum", "Max", "Min", "Mean"}) {
    m.node(op, {"X", "Z", "X"}, {"v_" + op}, op);
    m.output("v_" + op, F32);
  }
  auto w = parse(m);
  for (const auto& op : unary) {
    const auto& n = node(w, op);
    EXPECT_EQ(n.type, op);
    EXPECT_EQ(n.inputs.size(), 1u) << op;  // Clip's bounds are parameters
    EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{3, 5})) << op;
  }
  for (const std::string op : {"Sum", "Max", "Min", "Mean"}) {
    const auto& n = node(w, op);
    EXPECT_EQ(n.inputs.size(), 3u);
    EXPECT_EQ(map_of(n, 1), "(d1)");
  }
}

TEST(Elementwise, CastKeepsBothElementTypes) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 3}).output("Y", F16);
  m.node("Cast", {"X"}, {"Y"}, "cast").attr("to", F16);
  auto w = parse(m);
  const auto& n = node(w, "cast");
  EXPECT_EQ(n.inputs[0]->dtype, DType::f32);
  EXPECT_EQ(n.outputs[0]->dtype, DType::f16);
}

TEST(NoOps, IdentityAndDropoutAreFoldedAway) {
  ModelBuilder m("g", 13);
  m.input("X", F32, {2, 3}).output("Y", F32);
  m.node("Identity", {"X"}, {"i"}, "id");
  m.node("Dropout", {"i"}, {"d", "mask"}, "drop");
  m.node("Relu", {"d"}, {"Y"}, "relu");
  auto w = parse(m);
  EXPECT_EQ(w.computation_nodes().size(), 1u);
  EXPECT_EQ(node(w, "relu").inputs[0]->name, "X");
}

TEST(Constants, ConstantAndConstantOfShapeFeedWeightsAsConstantInputs) {
  ModelBuilder m("g", 13);
  m.input("X", F32, {1, 3, 8, 8}).output("Y", F32);
  auto c = m.node("Constant", {}, {"W"}, "const_w");
  auto* a = c.proto().add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  a->mutable_t()->set_data_type(F32);
  for (auto d : {4, 3, 3, 3}) a->mutable_t()->add_dims(d);
  m.int_initializer("shape", {4});
  m.node("ConstantOfShape", {"shape"}, {"B"}, "zeros");
  m.node("Conv", {"X", "W"}, {"c"}, "conv").attr("kernel_shape", Shape{3, 3});
  m.node("Add", {"c", "B"}, {"Y"}, "bias").proto();
  // Broadcast a [4] bias along the last axis of [1,4,6,6] is invalid; reshape it first instead.
  m.model().mutable_graph()->mutable_node()->RemoveLast();
  m.int_initializer("bias_shape", {4, 1, 1});
  m.node("Reshape", {"B", "bias_shape"}, {"B3"}, "bias_view");
  m.node("Add", {"c", "B3"}, {"Y"}, "bias");
  auto w = parse(m);
  EXPECT_EQ(node(w, "W").kind, NodeKind::InEdge);
  EXPECT_EQ(node(w, "conv").inputs[1]->shape, (std::vector<std::int64_t>{4, 3, 3, 3}));
  EXPECT_EQ(node(w, "B").kind, NodeKind::InEdge);
  EXPECT_EQ(sizes(node(w, "conv")), (std::vector<std::int64_t>{1, 6, 6, 3, 3, 3, 4}));
  EXPECT_EQ(map_of(node(w, "bias"), 1), "(d1)");  // the reshape folded: B[4] read at the channel
}

}  // namespace
