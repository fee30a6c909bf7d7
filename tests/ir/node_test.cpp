// Loop sizes, iterator kinds and access classes derived from maps and shapes.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/iteration_space.hpp>

using namespace stream;

namespace {
AffineExpr d(int i) { return AffineExpr::dim(i); }
TensorPtr t(const std::string& n, std::vector<std::int64_t> s) { return make_tensor(n, DType::bf16, std::move(s)); }
std::vector<IteratorKind> kinds(std::initializer_list<char> s) {
  std::vector<IteratorKind> out;
  for (char c : s) out.push_back(c == 'P' ? IteratorKind::Parallel : c == 'R' ? IteratorKind::Reduction : IteratorKind::Sequential);
  return out;
}
// MatMul ik,kj->ij with dims (i, j, k).
Node matmul(std::vector<std::int64_t> a_shape = {4, 8}) {
  return make_computation("mm", "MatMul", {t("A", std::move(a_shape)), t("B", {8, 6})}, {t("C", {4, 6})},
                          {AffineMap(3, {d(0), d(2)}), AffineMap(3, {d(2), d(1)}), AffineMap(3, {d(0), d(1)})});
}
}  // namespace

TEST(IterationSpace, MatMulHasTwoParallelDimsAndOneReduction) {
  auto n = matmul();
  EXPECT_EQ(loop_sizes(n), (std::vector<std::int64_t>{4, 6, 8}));
  EXPECT_EQ(iterator_kinds(n), kinds({'P', 'P', 'R'}));
}

TEST(IterationSpace, ConvWindowDimsTakeTheWeightExtent) {
  // 3x3 conv, pad 1: dims (b, k, oy, ox, c, fy, fx); the input reads oy + fy - 1.
  auto n = make_computation(
      "conv", "Conv", {t("I", {1, 8, 32, 32}), t("W", {16, 8, 3, 3})}, {t("O", {1, 16, 32, 32})},
      {AffineMap(7, {d(0), d(4), d(2) + d(5) - 1, d(3) + d(6) - 1}), AffineMap(7, {d(1), d(4), d(5), d(6)}),
       AffineMap(7, {d(0), d(1), d(2), d(3)})});
  EXPECT_EQ(loop_sizes(n), (std::vector<std::int64_t>{1, 16, 32, 32, 8, 3, 3}));
  EXPECT_EQ(iterator_kinds(n), kinds({'P', 'P', 'P', 'P', 'R', 'R', 'R'}));
}

TEST(IterationSpace, ADimNothingSizesIsAnError) {
  // d2 appears in no map and has no window extent.
  Node n;
  n.name = "orphan";
  n.type = "Relu";
  n.inputs = {t("I", {4})};
  n.outputs = {t("O", {4})};
  n.operand_mapping = {AffineMap(3, {d(0) + d(1)}), AffineMap(3, {d(0)})};
  n.window_extents = {{1, 1}};
  try {
    (void)loop_sizes(n);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().node, "orphan");
    EXPECT_NE(std::string(e.what()).find("d2"), std::string::npos);
  }
}

TEST(IterationSpace, WindowExtentsAndLegacyInference) {
  auto base = [] {
    Node n;
    n.kind = NodeKind::Computation;
    n.name = "pool";
    n.type = "MaxPool";
    n.inputs = {t("I", {1, 64, 112, 112})};
    n.outputs = {t("O", {1, 64, 56, 56})};
    // ResNet-18's max pool: 3x3, stride 2, pad 1 (spec §1.6).
    n.operand_mapping = {AffineMap(6, {d(0), d(1), d(2) * 2 + d(4) - 1, d(3) * 2 + d(5) - 1}),
                         AffineMap(6, {d(0), d(1), d(2), d(3)})};
    return n;
  };
  auto with_window = base();
  with_window.window_extents = {{4, 3}, {5, 3}};
  EXPECT_EQ(loop_sizes(with_window), (std::vector<std::int64_t>{1, 64, 56, 56, 3, 3}));
  EXPECT_EQ(iterator_kinds(with_window), kinds({'P', 'P', 'P', 'P', 'R', 'R'}));
  // The reference's inference: ((112 - 1 + 1 - 110) // 1) + 1 = 3; only the leading pad enters.
  EXPECT_EQ(loop_sizes(base()), (std::vector<std::int64_t>{1, 64, 56, 56, 3, 3}));
}

TEST(IterationSpace, GatherSourceIsDataDependentAndReduced) {
  // Gather axis 0: out[i, j] = data[idx[i], j]; the bounding map reads data at (d2, d1).
  auto n = make_computation("gather", "Gather", {t("data", {100, 16}), t("idx", {4})}, {t("out", {4, 16})},
                            {AffineMap(3, {d(2), d(1)}), AffineMap(3, {d(0)}), AffineMap(3, {d(0), d(1)})});
  EXPECT_EQ(loop_sizes(n), (std::vector<std::int64_t>{4, 16, 100}));
  EXPECT_EQ(iterator_kinds(n), kinds({'P', 'P', 'R'}));
  auto a = access_relation(n, 0);
  EXPECT_EQ(a.kind, AccessKind::DataDependent);
  EXPECT_FALSE(a.is_static());
  EXPECT_EQ(a.index_tensor, "idx");
  EXPECT_EQ(access_relation(n, 1).kind, AccessKind::Affine);
  EXPECT_EQ(access_relation(n, 2).kind, AccessKind::Affine);
}

TEST(IterationSpace, FloorDivMapsArePiecewiseAffine) {
  auto n = make_computation("pix", "PixelShuffle", {t("I", {8})}, {t("O", {2, 4})},
                            {AffineMap(2, {d(0) * 4 + d(1)}), AffineMap(2, {d(0), d(1)})});
  EXPECT_EQ(access_relation(n, 0).kind, AccessKind::Affine);
  auto m = make_computation("fold", "Fold", {t("I", {2, 4})}, {t("O", {8})},
                            {AffineMap(1, {d(0).floordiv(4), d(0).mod(4)}), AffineMap(1, {d(0)})});
  EXPECT_EQ(access_relation(m, 0).kind, AccessKind::PiecewiseAffine);
  EXPECT_EQ(loop_sizes(m), (std::vector<std::int64_t>{8}));
}

TEST(IterationSpace, StateCarryIsSequentialButASliceOffsetIsNot) {
  // h[t] = f(h[t-1], x[t]): the state input has the output's shape and is read at t - 1.
  auto scan = make_computation("scan", "Scan", {t("x", {8, 4}), t("h_prev", {8, 4})}, {t("h", {8, 4})},
                               {AffineMap(2, {d(0), d(1)}), AffineMap(2, {d(0) - 1, d(1)}), AffineMap(2, {d(0), d(1)})});
  EXPECT_EQ(iterator_kinds(scan), kinds({'S', 'P'}));
  // A Slice reading src[d + 3] is a sub-range read, not a recurrence (spec §1.8 [REC]).
  auto slice = make_computation("slice", "Slice", {t("src", {10})}, {t("dst", {4})},
                                {AffineMap(1, {d(0) + 3}), AffineMap(1, {d(0)})});
  EXPECT_EQ(iterator_kinds(slice), kinds({'P'}));
  EXPECT_EQ(loop_sizes(slice), (std::vector<std::int64_t>{4}));  // the slice's extent, not the source's
}

TEST(IterationSpace, InconsistentShapesNameNodeAndOperand) {
  try {
    (void)loop_sizes(matmul({3, 8}));  // A has 3 rows, C has 4
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().node, "mm");
    EXPECT_EQ(e.where().operand, "A");
  }
}

TEST(Node, StructuralErrorsNameNodeAndOperand) {
  auto a = t("A", {4, 8});
  try {
    (void)make_computation("bad", "Relu", {a}, {t("B", {4, 8})}, {AffineMap(2, {d(0), d(1)}), AffineMap(2, {d(0)})});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().node, "bad");
    EXPECT_EQ(e.where().operand, "B");
    EXPECT_NE(std::string(e.what()).find("rank 2"), std::string::npos);
  }
  EXPECT_THROW((void)make_computation("bad2", "Relu", {a}, {t("B", {4, 8})}, {AffineMap::identity(2)}), Error);
  EXPECT_THROW((void)make_computation("bad3", "Relu", {a}, {t("B", {4, 8})},
                                      {AffineMap::identity(2), AffineMap(3, {d(0), d(1)})}),
               Error);
}

TEST(Node, NormalizationKeepsItsAxes) {
  auto n = make_normalization("sm", "Softmax", t("x", {128, 128}), t("y", {128, 128}), {1});
  EXPECT_EQ(n.operand_mapping[0], AffineMap::identity(2));
  EXPECT_EQ(iterator_kinds(n), kinds({'P', 'P'}));
  EXPECT_EQ(n.reduction_axes, (std::vector<int>{1}));
  EXPECT_THROW((void)make_normalization("sm2", "Softmax", t("x", {4}), t("y", {4}), {1}), Error);
}

TEST(DType, BitWidthsAndNames) {
  EXPECT_EQ(bits(DType::bf16), 16);
  EXPECT_EQ(bits(DType::u8), 8);
  EXPECT_EQ(bits(DType::i32), 32);
  EXPECT_EQ(parse_dtype("bfloat16"), DType::bf16);
  EXPECT_EQ(name(DType::f16), "f16");
  // int64 (computed indices) and bool (masks, stored in a byte) are data types too; so is f64
  // (dtype_test.cpp), complex is not.
  EXPECT_EQ(parse_dtype("int64"), DType::i64);
  EXPECT_EQ(bits(DType::i64), 64);
  EXPECT_EQ(parse_dtype("bool"), DType::b8);
  EXPECT_EQ(bits(DType::b8), 8);
  EXPECT_EQ(name(DType::b8), "bool");
  EXPECT_EQ(parse_dtype("float64"), DType::f64);
  EXPECT_FALSE(parse_dtype("complex64").has_value());
  EXPECT_THROW((void)dtype_from_string("complex64"), Error);
}

// An LSTM step h(t) = f(h(t-1) R^T): the state input is narrower than the gate output, so only
// the state_inputs flag makes t SEQUENTIAL; without it t is parallel (spec §1.8's node flag).
TEST(Node, StateInputFlagMakesTheOffsetDimSequential) {
  using E = AffineExpr;
  auto hprev = t("h_prev", {5, 4}), R = t("R", {16, 4}), gates = t("gates", {5, 16});
  // dims (t, g, j): h_prev[t-1, j], R[g, j], gates[t, g].
  auto n = make_computation("h_gates", "MatMul", {hprev, R}, {gates},
                            {AffineMap(3, {E::dim(0) + -1, E::dim(2)}), AffineMap(3, {E::dim(1), E::dim(2)}),
                             AffineMap(3, {E::dim(0), E::dim(1)})});
  EXPECT_EQ(iterator_kinds(n), kinds({'P', 'P', 'R'}));
  n.state_inputs = {0};
  EXPECT_EQ(iterator_kinds(n), kinds({'S', 'P', 'R'}));
  n.state_inputs = {2};
  EXPECT_THROW(validate(n), Error);
}
