// The reference's name-keyed re-sequencing (ir/name_order.hpp), on the orders aie-and-defaults.md
// §4a measured with the reference.
#include <gtest/gtest.h>

#include <stream/ir/name_order.hpp>

using namespace stream;

namespace {
AffineExpr d(int i) { return AffineExpr::dim(i); }
TensorPtr t(const std::string& n, std::vector<std::int64_t> s) { return make_tensor(n, DType::bf16, std::move(s)); }
Node gemm(const std::string& name, TensorPtr a, TensorPtr b, TensorPtr c) {
  return make_computation(name, "Gemm", {std::move(a), std::move(b)}, {std::move(c)},
                          {AffineMap(3, {d(0), d(1)}), AffineMap(3, {d(1), d(2)}), AffineMap(3, {d(0), d(2)})});
}
Node eltwise(const std::string& name, const std::string& type, std::vector<TensorPtr> in, TensorPtr out) {
  std::vector<AffineMap> maps(in.size() + 1, AffineMap::identity(2));
  return make_computation(name, type, std::move(in), {std::move(out)}, std::move(maps));
}
std::vector<std::string> names(const Workload& w) {
  std::vector<std::string> out;
  for (const auto& n : w.nodes()) out.push_back(n.name);
  return out;
}
}  // namespace

// make_small_swiglu_workload: the reference measured
// input, weights_1, Gemm_Left, Silu, weights_2, Gemm_Right, Elt_Mul, weights_3, Gemm_Down, output.
TEST(NameOrder, SwiGluComputesTheLeftBranchFirst) {
  auto x = t("input", {1, 16}), w1 = t("weights_1", {16, 32}), w2 = t("weights_2", {16, 32}), w3 = t("weights_3", {32, 16});
  auto l = t("left", {1, 32}), r = t("right", {1, 32}), s = t("left_swished", {1, 32}), m = t("intermediate", {1, 32});
  auto y = t("Y", {1, 16});
  const Workload w({make_in_edge("input", x), make_in_edge("weights_1", w1), make_in_edge("weights_2", w2),
                    make_in_edge("weights_3", w3), gemm("Gemm_Left", x, w1, l), gemm("Gemm_Right", x, w2, r),
                    eltwise("Silu", "Silu", {l}, s), eltwise("Elt_Mul", "Mul", {s, r}, m), gemm("Gemm_Down", m, w3, y),
                    make_out_edge("output", y)});
  EXPECT_EQ(names(in_name_order(w)), (std::vector<std::string>{"input", "weights_1", "Gemm_Left", "Silu", "weights_2",
                                                                "Gemm_Right", "Elt_Mul", "weights_3", "Gemm_Down", "output"}));
}

// 2_conv.onnx: input, conv1_weight, conv2_weight, conv1, conv2, output ->
// conv1_weight, conv2_weight, input, conv1, conv2, output (code points: 'c' < 'i'; a prefix first).
TEST(NameOrder, CodePointOrderWithPrefixesFirst) {
  auto x = t("input", {4, 4}), w1 = t("conv1_weight", {4, 4}), w2 = t("conv2_weight", {4, 4});
  auto a = t("conv1_out", {4, 4}), y = t("Y", {4, 4});
  const Workload w({make_in_edge("input", x), make_in_edge("conv1_weight", w1), make_in_edge("conv2_weight", w2),
                    gemm("conv1", x, w1, a), gemm("conv2", a, w2, y), make_out_edge("output", y)});
  EXPECT_EQ(names(in_name_order(w)),
            (std::vector<std::string>{"conv1_weight", "conv2_weight", "input", "conv1", "conv2", "output"}));
}

// A node reading one tensor twice has one producer: it is ready once that producer is placed.
TEST(NameOrder, ARepeatedProducerCountsOnce) {
  auto x = t("x", {2, 2}), y = t("y", {2, 2});
  const Workload w({make_in_edge("x", x), eltwise("B_square", "Mul", {x, x}, y), make_out_edge("A_out", y)});
  EXPECT_EQ(names(in_name_order(w)), (std::vector<std::string>{"x", "B_square", "A_out"}));
}
