// The workload graph: edges, the deterministic topological order, and unified dimensions.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/dimensions.hpp>
#include <stream/ir/workload.hpp>

using namespace stream;

namespace {
AffineExpr d(int i) { return AffineExpr::dim(i); }
TensorPtr t(const std::string& n, std::vector<std::int64_t> s) { return make_tensor(n, DType::bf16, std::move(s)); }

Node gemm(const std::string& name, TensorPtr a, TensorPtr b, TensorPtr c) {
  // dims (m, k, n): A (m, k), B (k, n), C (m, n)
  return make_computation(name, "Gemm", {std::move(a), std::move(b)}, {std::move(c)},
                          {AffineMap(3, {d(0), d(1)}), AffineMap(3, {d(1), d(2)}), AffineMap(3, {d(0), d(2)})});
}
Node eltwise(const std::string& name, const std::string& type, std::vector<TensorPtr> in, TensorPtr out) {
  std::vector<AffineMap> maps(in.size() + 1, AffineMap::identity(static_cast<int>(out->rank())));
  return make_computation(name, type, std::move(in), {std::move(out)}, std::move(maps));
}

// swiglu_1_16_32 as the spec describes it (§1.7, §8): two Gemms on X, Silu, Mul, a down Gemm.
Workload swiglu() {
  auto x = t("X", {1, 16}), w1 = t("W1", {16, 32}), w2 = t("W2", {16, 32}), w3 = t("W3", {32, 16});
  auto l = t("L", {1, 32}), r = t("R", {1, 32}), s = t("S", {1, 32}), m = t("M", {1, 32}), y = t("Y", {1, 16});
  return Workload({make_in_edge("X", x), make_in_edge("W1", w1), make_in_edge("W2", w2), make_in_edge("W3", w3),
                   gemm("Gemm_Left", x, w1, l), gemm("Gemm_Right", x, w2, r), eltwise("Silu", "Silu", {l}, s),
                   eltwise("Elt_Mul", "Mul", {s, r}, m), gemm("Gemm_Down", m, w3, y), make_out_edge("Y_out", y)});
}
}  // namespace

TEST(Workload, EdgesAndTopologicalOrderFollowInsertion) {
  auto a = t("a", {4}), b = t("b", {4}), c = t("c", {4}), e = t("e", {4});
  // Inserted out of dataflow order: the consumer "late" comes before its producer "early".
  Workload wl({make_in_edge("in", a), eltwise("late", "Relu", {b}, c), eltwise("early", "Relu", {a}, b),
               eltwise("side", "Neg", {a}, e)});
  EXPECT_EQ(wl.edges().size(), 3u);
  // Ready after "in": early (2) and side (3); early first as inserted first, then late (1), then side.
  EXPECT_EQ(wl.dataflow_order(), (std::vector<std::size_t>{0, 2, 1, 3}));
  EXPECT_EQ(wl.producer_of("b"), 2u);
  EXPECT_EQ(wl.producer_of("zzz"), Workload::npos);
  EXPECT_EQ(wl.computation_nodes(), (std::vector<std::size_t>{1, 2, 3}));
}

TEST(Workload, RenamingTensorsKeepsTheOrder) {
  auto order_with = [](const std::string& prefix) {
    auto a = t(prefix + "a", {4}), b = t(prefix + "b", {4}), c = t(prefix + "c", {4});
    Workload wl({make_in_edge("in", a), eltwise("n1", "Relu", {a}, b), eltwise("n2", "Relu", {a}, c)});
    return wl.dataflow_order();
  };
  EXPECT_EQ(order_with("x_"), order_with("zeta_"));
}

TEST(Workload, MissingProducerCycleAndDuplicateNamesAreErrors) {
  auto a = t("a", {4}), b = t("b", {4});
  try {
    Workload wl({eltwise("n", "Relu", {a}, b)});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where().node, "n");
    EXPECT_EQ(e.where().operand, "a");
  }
  EXPECT_THROW(Workload({eltwise("p", "Relu", {a}, b), eltwise("q", "Relu", {b}, a)}), Error);
  EXPECT_THROW(Workload({make_in_edge("n", a), eltwise("n", "Relu", {a}, b)}), Error);
  // Two different tensor objects under one name.
  EXPECT_THROW(Workload({make_in_edge("in", a), eltwise("m", "Relu", {t("a", {4})}, b)}), Error);
}

TEST(Workload, SizesAreDerivedAtConstruction) {
  auto wl = swiglu();
  EXPECT_EQ(wl.loop_sizes(wl.index_of("Gemm_Down")), (std::vector<std::int64_t>{1, 32, 16}));
  EXPECT_TRUE(wl.loop_sizes(wl.index_of("X")).empty());
}

TEST(UnifiedDimensions, SwigluByHand) {
  // Slots in dataflow order: Gemm_Left 0-2, Gemm_Right 3-5, Silu 6-7, Elt_Mul 8-9, Gemm_Down 10-12.
  // Edge relations: L: 0=6, 2=7; R: 3=8, 5=9; S: 6=8, 7=9; M: 8=10, 9=11. Both Gemms read X's
  // axis 1 with their reduction dim, so 1=4 (their parallel m axes are not related directly).
  // Classes {0,3,6,8,10} {2,5,7,9,11} {1,4} {12}; roots 10, 11, 4, 12 -> sorted 4, 10, 11, 12.
  auto wl = swiglu();
  const auto& u = wl.unified_dimensions();
  EXPECT_EQ(u.num_unique(), 4u);
  EXPECT_EQ(u.dims_of(wl.index_of("Gemm_Left"), 3), (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(u.dims_of(wl.index_of("Gemm_Right"), 3), (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(u.dims_of(wl.index_of("Elt_Mul"), 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(u.dims_of(wl.index_of("Gemm_Down"), 3), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(u.dim_size, (std::vector<std::int64_t>{16, 1, 32, 16}));
  EXPECT_EQ(&wl.unified_dimensions(), &u);  // cached
}

TEST(UnifiedDimensions, WindowIndicesDoNotUnifyButOffsetsDo) {
  // A conv reads its producer's output at oy + fy - 1 (three terms): not an identity relation.
  auto x = t("x", {1, 1, 8, 8}), w = t("w", {1, 1, 3, 3}), y = t("y", {1, 1, 8, 8}), z = t("z", {1, 1, 8, 8});
  Workload wl({make_in_edge("x", x), make_in_edge("w", w), eltwise("relu", "Relu", {x}, y),
               make_computation("conv", "Conv", {y, w}, {z},
                                {AffineMap(7, {d(0), d(4), d(2) + d(5) - 1, d(3) + d(6) - 1}),
                                 AffineMap(7, {d(1), d(4), d(5), d(6)}), AffineMap(7, {d(0), d(1), d(2), d(3)})})});
  const auto& u = wl.unified_dimensions();
  // relu (4 slots) + conv (7 slots); only b and c relate (relu d0=conv d0, relu d1=conv d4).
  EXPECT_EQ(u.num_unique(), 11u - 2u);
  EXPECT_EQ(u.relations.size(), 2u);

  // A slice reading src[d + 2] relates with an offset: the slice's dim is the producer's + 2.
  auto a = t("a", {10}), b = t("b", {10}), c = t("c", {4});
  Workload s({make_in_edge("a", a), eltwise("p", "Relu", {a}, b),
              make_computation("slice", "Slice", {b}, {c}, {AffineMap(1, {d(0) + 2}), AffineMap(1, {d(0)})})});
  const auto& us = s.unified_dimensions();
  EXPECT_EQ(us.num_unique(), 1u);
  // p's slot 0 = slice's slot 1 + 2.
  EXPECT_EQ(us.slot_offset[0] - us.slot_offset[1], 2);
}
