// The reference's SwiGLU mapping generator (dse §3.2) on whole_array_strix (32 AIE compute tiles,
// used as a 4 x 8 array) and SwiGLU S=256, E=2048, H=8192 built with the IR as the reference's
// ONNX parser gives it (Gemm loops (m, k, n) = D0, D1, D2; Silu and Mul (rows, cols)).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "stream/error.hpp"
#include "stream/hardware/accelerator_reader.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/mapping_generator.hpp"

namespace fs = std::filesystem;
using namespace stream;
using namespace stream::mapping;

namespace {

const fs::path kStrix = fs::path(STREAM_TEST_DATA_DIR) / "reference/stream-inputs/aie/hardware/whole_array_strix.yaml";

AffineExpr d(int i) { return AffineExpr::dim(i); }

Node gemm(const std::string& name, TensorPtr x, TensorPtr w, TensorPtr y) {
  return make_computation(name, "Gemm", {std::move(x), std::move(w)}, {std::move(y)},
                          {AffineMap(3, {d(0), d(1)}), AffineMap(3, {d(1), d(2)}), AffineMap(3, {d(0), d(2)})});
}

Workload swiglu(std::int64_t s, std::int64_t e, std::int64_t h, bool down = true) {
  auto t = [](const std::string& n, std::vector<std::int64_t> shape) { return make_tensor(n, DType::bf16, std::move(shape)); };
  auto x = t("input", {s, e}), w1 = t("weights_1", {e, h}), w2 = t("weights_2", {e, h}), w3 = t("weights_3", {h, e});
  auto left = t("left", {s, h}), right = t("right", {s, h}), sw = t("left_swished", {s, h}), mid = t("intermediate", {s, h});
  auto out = t("output", {s, e});
  std::vector<Node> nodes{make_in_edge("input", x), make_in_edge("weights_1", w1), make_in_edge("weights_2", w2)};
  if (down) nodes.push_back(make_in_edge("weights_3", w3));
  nodes.push_back(gemm("Gemm_Left", x, w1, left));
  nodes.push_back(gemm("Gemm_Right", x, w2, right));
  nodes.push_back(make_computation("Silu", "Silu", {left}, {sw}, {AffineMap::identity(2), AffineMap::identity(2)}));
  nodes.push_back(make_computation("Elt_Mul", "Mul", {sw, right}, {mid},
                                   {AffineMap::identity(2), AffineMap::identity(2), AffineMap::identity(2)}));
  if (down) {
    nodes.push_back(gemm("Gemm_Down", mid, w3, out));
    nodes.push_back(make_out_edge("output", out));
  } else {
    nodes.push_back(make_out_edge("output", mid));
  }
  return Workload(std::move(nodes));
}

std::int64_t total_cores(const Mapping& m) {
  std::int64_t n = 0;
  for (const auto& l : m.layers) n += l.total_split();
  return n;
}

}  // namespace

// On a 4 x 8 array: Gemm totals 4, 8, 16 -> one rows-first shape each, (4,1), (4,2), (4,4) (not
// (1,4)/(2,2), (8,1)/(2,4), (2,8)/(8,2)); Silu and Elt_Mul totals 1, 4 -> (1), (4).
TEST(MappingGenerator, LayerOptionsOnFourByEight) {
  const auto acc = hardware::load_accelerator(kStrix);
  ASSERT_EQ(acc.compute_cores().size(), 32u);
  const auto opts = layer_options(swiglu_shape(swiglu(256, 2048, 8192)), 32, {});
  ASSERT_EQ(opts.size(), 5u);
  const std::vector<std::vector<DimSplit>> gemm{{{0, 4}, {2, 1}}, {{0, 4}, {2, 2}}, {{0, 4}, {2, 4}}};
  const std::vector<std::vector<DimSplit>> elt{{{0, 1}}, {{0, 4}}};
  for (std::size_t l = 0; l < 5; ++l) {
    std::vector<std::vector<DimSplit>> got;
    for (const auto& o : opts[l]) got.push_back(o.splits);
    EXPECT_EQ(got, (l == 2 || l == 3) ? elt : gemm) << kSwigluRoles[l];
  }
}

// 3*3*2*2*3 = 108 combinations; Silu + Elt_Mul take 2 (1 way), 5 (2 ways) or 8 (1 way) cores,
// so Gemm_Left + Gemm_Right + Gemm_Down may take <= 30, 27, 24 of the 32. Of the 27 Gemm
// triples over {4, 8, 16}: the 8 without a 16 sum to 12..24; with one 16 (3 places) the others
// (4,4), (4,8), (8,4), (8,8) give 24, 28, 28, 32; two 16s exceed 32. So <= 30: 8 + 3*3 = 17,
// <= 27: 8 + 3 = 11, <= 24: 11, and 17 + 2*11 + 11 = 50 (the reference's verified count). The
// first (sum 32, first in product order): L 4x1, R 4x1, Silu 4, Mul 4, Down 4x4.
TEST(MappingGenerator, FiftyVariantsWithGemmDown) {
  const auto acc = hardware::load_accelerator(kStrix);
  const auto v = generate_mapping_variants(swiglu(256, 2048, 8192), acc, {});
  ASSERT_EQ(v.size(), 50u);
  EXPECT_EQ(v[0].tag, "Gemm_Left_D0x4_D2x1__Gemm_Right_D0x4_D2x1__Silu_D0x4__Elt_Mul_D0x4__Gemm_Down_D0x4_D2x4");
  // Equal sums keep product order: (4,16,4,4,4) is next, the last is the smallest (4,4,1,1,4).
  EXPECT_EQ(v[1].tag, "Gemm_Left_D0x4_D2x1__Gemm_Right_D0x4_D2x4__Silu_D0x4__Elt_Mul_D0x4__Gemm_Down_D0x4_D2x1");
  EXPECT_EQ(v.back().tag, "Gemm_Left_D0x4_D2x1__Gemm_Right_D0x4_D2x1__Silu_D0x1__Elt_Mul_D0x1__Gemm_Down_D0x4_D2x1");
  for (std::size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(v[i].index, i);
    EXPECT_LE(total_cores(v[i].mapping), 32);
    if (i) {
      EXPECT_GE(total_cores(v[i - 1].mapping), total_cores(v[i].mapping)) << i;  // utilisation descending
    }
  }
  // A tag names each variant once.
  std::set<std::string> tags;
  for (const auto& x : v) tags.insert(x.tag);
  EXPECT_EQ(tags.size(), 50u);
}

// Disjoint cores: layers in template order take the next compute cores in graph order.
TEST(MappingGenerator, DisjointCoresAndReferenceMappingLayout) {
  const auto acc = hardware::load_accelerator(kStrix);
  const auto cc = acc.compute_cores();
  const auto first = generate_mapping_variants(swiglu(256, 2048, 8192), acc, {}).at(0).mapping;
  const std::vector<std::pair<std::size_t, std::size_t>> ranges{{0, 4}, {4, 8}, {8, 12}, {12, 16}, {16, 32}};
  ASSERT_EQ(first.layers.size(), 5u);
  for (std::size_t l = 0; l < 5; ++l)
    EXPECT_EQ(first.layers[l].cores(), std::vector<int>(cc.begin() + ranges[l].first, cc.begin() + ranges[l].second));
  EXPECT_EQ(first.layers[0].kernel->name, "gemm");
  EXPECT_DOUBLE_EQ(first.layers[0].kernel->utilization, 61.8);
  EXPECT_EQ(first.layers[2].kernel->name, "silu");
  EXPECT_EQ(first.layers[3].kernel->name, "eltwise_mul");
  ASSERT_EQ(first.fused_groups.size(), 1u);
  // The reference's order: Gemm_Left.D1 (emb tile 128), Gemm_Down.D2 (emb 128), Gemm_Left.D2
  // (hidden 64), Gemm_Left.D0 (seq 32).
  EXPECT_EQ(first.fused_groups[0].intra_core_tiling,
            (std::vector<TileEntry>{{"Gemm_Left", 1, 128}, {"Gemm_Down", 2, 128}, {"Gemm_Left", 2, 64}, {"Gemm_Left", 0, 32}}));
  ASSERT_EQ(first.runtime_args.size(), 5u);
  EXPECT_EQ(first.runtime_args[3].tensor, "weights_3");
  // It reads back as a mapping file that fits the workload and the accelerator.
  Diagnostics diag;
  check_mapping(parse_mapping_text(to_yaml(first), "variant.yaml"), swiglu(256, 2048, 8192), acc, diag);
  EXPECT_FALSE(diag.has_errors());
}

// Without Gemm_Down: 36 combinations; L + R may take <= 30, 27, 24: every pair but (16,16), 8
// of 9, so 8 + 2*8 + 8 = 32 (the reference's count). The first: L 4x2, R 4x4, Silu 4, Mul 4 (sum 32).
TEST(MappingGenerator, ThirtyTwoVariantsWithoutGemmDown) {
  const auto acc = hardware::load_accelerator(kStrix);
  const auto v = generate_mapping_variants(swiglu(256, 2048, 8192, false), acc, {});
  ASSERT_EQ(v.size(), 32u);
  EXPECT_EQ(v[0].tag, "Gemm_Left_D0x4_D2x2__Gemm_Right_D0x4_D2x4__Silu_D0x4__Elt_Mul_D0x4");
  EXPECT_EQ(v[0].mapping.fused_groups[0].intra_core_tiling.size(), 3u);
  // Bounded: the first max_variants of the same order.
  MappingGeneratorOptions o;
  o.max_variants = 20;
  const auto b = generate_mapping_variants(swiglu(256, 2048, 8192, false), acc, o);
  ASSERT_EQ(b.size(), 20u);
  EXPECT_EQ(b[19].tag, v[19].tag);
}

// The reference's third order, random.Random(42).shuffle of the 36 combinations in product order,
// then the same fit filter. Expected tags from CPython: shuffle itertools.product of L, R in
// [(4,1), (4,2), (4,4)] and Silu, Mul in [1, 4] with random.Random(42), keep sums <= 32.
TEST(MappingGenerator, RandomOrderIsTheReferenceSeededShuffle) {
  const auto acc = hardware::load_accelerator(kStrix);
  MappingGeneratorOptions o;
  o.ordering = MappingOrder::Random;
  const auto v = generate_mapping_variants(swiglu(256, 2048, 8192, false), acc, o);
  ASSERT_EQ(v.size(), 32u);
  EXPECT_EQ(v[0].tag, "Gemm_Left_D0x4_D2x1__Gemm_Right_D0x4_D2x4__Silu_D0x1__Elt_Mul_D0x4");
  EXPECT_EQ(v[1].tag, "Gemm_Left_D0x4_D2x2__Gemm_Right_D0x4_D2x1__Silu_D0x1__Elt_Mul_D0x1");
  EXPECT_EQ(v[2].tag, "Gemm_Left_D0x4_D2x1__Gemm_Right_D0x4_D2x2__Silu_D0x1__Elt_Mul_D0x4");
  EXPECT_EQ(v.back().tag, "Gemm_Left_D0x4_D2x1__Gemm_Right_D0x4_D2x2__Silu_D0x4__Elt_Mul_D0x4");
  // The same variants as the default order, only reordered; another seed, another order.
  std::set<std::string> shuffled, sorted;
  for (const auto& x : v) shuffled.insert(x.tag);
  for (const auto& x : generate_mapping_variants(swiglu(256, 2048, 8192, false), acc, {})) sorted.insert(x.tag);
  EXPECT_EQ(shuffled, sorted);
  o.shuffle_seed = 7;
  EXPECT_NE(generate_mapping_variants(swiglu(256, 2048, 8192, false), acc, o)[0].tag, v[0].tag);
}

TEST(MappingGenerator, ErrorsNameTheReason) {
  const auto acc = hardware::load_accelerator(kStrix);
  auto message = [&](const Workload& w, const MappingGeneratorOptions& o) {
    try {
      (void)generate_mapping_variants(w, acc, o);
    } catch (const Error& e) {
      return e.message();
    }
    return std::string("no error");
  };
  // seq 64 < 4 x seq tile 32.
  EXPECT_NE(message(swiglu(64, 2048, 8192), {}).find("seq_len 64 must be at least 4 x the seq tile 32"), std::string::npos);
  MappingGeneratorOptions o;
  o.hidden_tile_size = 3000;
  EXPECT_NE(message(swiglu(256, 2048, 8192), o).find("hidden_dim 8192 must be divisible"), std::string::npos);
  o = {};
  o.last_gemm_down = false;
  EXPECT_NE(message(swiglu(256, 2048, 8192), o).find("last_gemm_down is off"), std::string::npos);
  // A 2-conv-like workload without a Silu.
  auto x = make_tensor("x", DType::bf16, {4, 4}), y = make_tensor("y", DType::bf16, {4, 4});
  const Workload relu({make_in_edge("x", x),
                       make_computation("r", "Relu", {x}, {y}, {AffineMap::identity(2), AffineMap::identity(2)}),
                       make_out_edge("y", y)});
  EXPECT_NE(message(relu, {}).find("not a SwiGLU-shaped workload (mapping search): no Silu node"), std::string::npos);
}
