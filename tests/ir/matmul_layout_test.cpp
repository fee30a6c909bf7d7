// The shared matrix-product layout (stream/ir/matmul_layout.hpp) both frontends lower MatMul,
// mm/bmm/matmul, addmm, linear and attention products through. Expected maps are derived by hand
// from the NumPy matmul rule: loops are the output's batch axes, then m, n, k.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/matmul_layout.hpp>

#include "thrown_error.hpp"

using namespace stream;
using stream::test::mentions;

namespace {

AffineExpr d(int i) { return AffineExpr::dim(i); }
Tensor t(const std::string& name, std::vector<std::int64_t> shape) { return Tensor{name, DType::bf16, std::move(shape)}; }
TensorPtr p(const std::string& name, std::vector<std::int64_t> shape) { return make_tensor(name, DType::bf16, std::move(shape)); }

Error layout_error(const Tensor& a, const Tensor& b, const Tensor& y,
                   MatmulLayout::OperandB layout = MatmulLayout::OperandB::KN) {
  return test::thrown_error([&] { (void)matmul_layout(a, b, y, layout); });
}

}  // namespace

TEST(MatmulLayout, BatchedProductHasBatchLoopsThenMNK) {
  // A[2,3,4,5] x B[2,3,5,6] -> Y[2,3,4,6]: two batch loops b0, b1 (d0, d1), m = d2, n = d3, k = d4.
  const auto l = matmul_layout(t("A", {2, 3, 4, 5}), t("B", {2, 3, 5, 6}), t("Y", {2, 3, 4, 6}));
  EXPECT_EQ(l.dims, 5);
  EXPECT_EQ(l.batch, 2U);
  EXPECT_EQ(l.m, 2);
  EXPECT_EQ(l.n, 3);
  EXPECT_EQ(l.k, 4);
  EXPECT_EQ(l.names, (std::vector<std::string>{"b0", "b1", "m", "n", "k"}));
  EXPECT_EQ(l.a, AffineMap(5, {d(0), d(1), d(2), d(4)})) << l.a.str();
  EXPECT_EQ(l.b, AffineMap(5, {d(0), d(1), d(4), d(3)})) << l.b.str();
  EXPECT_EQ(l.y, AffineMap(5, {d(0), d(1), d(2), d(3)})) << l.y.str();
}

TEST(MatmulLayout, BroadcastBatchAxesAreRightAlignedAndUnitOnesReadAtZero) {
  // A[4,5] x B[3,5,6] -> Y[3,4,6]: one batch loop b0 = d0 that A lacks; m = d1, n = d2, k = d3.
  const auto l = matmul_layout(t("A", {4, 5}), t("B", {3, 5, 6}), t("Y", {3, 4, 6}));
  EXPECT_EQ(l.a, AffineMap(4, {d(1), d(3)})) << l.a.str();
  EXPECT_EQ(l.b, AffineMap(4, {d(0), d(3), d(2)})) << l.b.str();
  // A[1,4,5]: its batch extent 1 broadcasts to 3, so it reads index 0 at every b0.
  const auto u = matmul_layout(t("A", {1, 4, 5}), t("B", {3, 5, 6}), t("Y", {3, 4, 6}));
  EXPECT_EQ(u.a, AffineMap(4, {AffineExpr::constant(0), d(1), d(3)})) << u.a.str();
  // A unit batch axis the output shares (Y[1,4,6]) indexes with b0, so that it stays one axis.
  const auto s = matmul_layout(t("A", {1, 4, 5}), t("B", {1, 5, 6}), t("Y", {1, 4, 6}));
  EXPECT_EQ(s.a, AffineMap(4, {d(0), d(1), d(3)})) << s.a.str();
}

TEST(MatmulLayout, OneDimensionalOperandsDropTheirMatrixAxis) {
  // A[5] x B[5,6] -> Y[6]: no m; n = d0, k = d1.
  const auto vm = matmul_layout(t("A", {5}), t("B", {5, 6}), t("Y", {6}));
  EXPECT_EQ(vm.m, -1);
  EXPECT_EQ(vm.names, (std::vector<std::string>{"n", "k"}));
  EXPECT_EQ(vm.a, AffineMap(2, {d(1)})) << vm.a.str();
  EXPECT_EQ(vm.b, AffineMap(2, {d(1), d(0)})) << vm.b.str();
  EXPECT_EQ(vm.y, AffineMap(2, {d(0)})) << vm.y.str();
  // A[4,5] x B[5] -> Y[4]: no n; m = d0, k = d1.
  const auto mv = matmul_layout(t("A", {4, 5}), t("B", {5}), t("Y", {4}));
  EXPECT_EQ(mv.n, -1);
  EXPECT_EQ(mv.a, AffineMap(2, {d(0), d(1)})) << mv.a.str();
  EXPECT_EQ(mv.b, AffineMap(2, {d(1)})) << mv.b.str();
}

TEST(MatmulLayout, WeightStoredNKReadsNThenK) {
  // linear: X[2,8,16] x W[32,16]^T -> Y[2,8,32]: b0 = d0, m = d1, n = d2, k = d3; W[n, k] = (d2, d3).
  const auto l = matmul_layout(t("X", {2, 8, 16}), t("W", {32, 16}), t("Y", {2, 8, 32}), MatmulLayout::OperandB::NK);
  EXPECT_EQ(l.a, AffineMap(4, {d(0), d(1), d(3)})) << l.a.str();
  EXPECT_EQ(l.b, AffineMap(4, {d(2), d(3)})) << l.b.str();
  EXPECT_EQ(l.y, AffineMap(4, {d(0), d(1), d(2)})) << l.y.str();
}

TEST(MatmulLayout, OutputRankBelowTheMatrixAxesIsAnError) {
  // Two 2-D operands give Y an m and an n axis; a rank-1 Y would leave -1 batch axes (the ONNX
  // copy computed that count with an unguarded unsigned subtraction).
  const auto e = layout_error(t("A", {4, 5}), t("B", {5, 6}), t("Y", {4}));
  EXPECT_EQ(e.where().operand, "Y");
  EXPECT_TRUE(mentions(e, "output rank 1")) << e.message();
  EXPECT_EQ(e.kind(), ErrorKind::BadInput);
}

TEST(MatmulLayout, BadOperandsAreErrorsNamingTheTensor) {
  EXPECT_EQ(layout_error(t("A", {}), t("B", {5, 6}), t("Y", {6})).where().operand, "A");
  const auto k = layout_error(t("A", {4, 5}), t("B", {6, 7}), t("Y", {4, 7}));
  EXPECT_EQ(k.where().operand, "B");
  EXPECT_TRUE(mentions(k, "contraction mismatch: A[..,5] vs B[6,..]")) << k.message();
  const auto b = layout_error(t("A", {2, 4, 5}), t("B", {3, 5, 6}), t("Y", {3, 4, 6}));
  EXPECT_EQ(b.where().operand, "A");
  EXPECT_TRUE(mentions(b, "batch axis 0 of size 2 does not broadcast to 3")) << b.message();
  // Y[3,4,6] has one batch axis; A[2,3,4,5] brings two.
  EXPECT_TRUE(mentions(layout_error(t("A", {2, 3, 4, 5}), t("B", {5, 6}), t("Y", {3, 4, 6})), "more batch axes"));
  const auto nk = layout_error(t("X", {4, 5}), t("W", {5}), t("Y", {4}), MatmulLayout::OperandB::NK);
  EXPECT_EQ(nk.where().operand, "W");
}

TEST(MatmulLayout, NodeCarriesTheTypeMapsAndLoopNames) {
  const auto n = matmul_node("mm", "MatMul", p("A", {4, 5}), p("B", {5, 6}), p("Y", {4, 6}));
  EXPECT_EQ(n.type, "MatMul");
  EXPECT_EQ(n.dim_names, (std::vector<std::string>{"m", "n", "k"}));
  ASSERT_EQ(n.operand_mapping.size(), 3U);
  EXPECT_EQ(n.operand_mapping[1], AffineMap(3, {d(2), d(1)})) << n.operand_mapping[1].str();
}
