// The mapping search (dse §3.3) on a small SwiGLU (S=16, E=64, H=128, built with the IR as the
// ONNX parser gives it) on simba: each variant's latency is that of a plain run with
// its mapping, and the best is the first strictly lowest. The hardware is simba (36 generic
// chiplets, used as a 4 x 8 array): on whole_array_strix one of these allocations takes minutes.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "stream/error.hpp"
#include "stream/out_of_memory.hpp"
#include "stream/hardware/accelerator_reader.hpp"
#include "stream/pipeline/mapping_search.hpp"

namespace fs = std::filesystem;
using namespace stream;

namespace {

const fs::path kSimba = fs::path(STREAM_INPUTS_DIR) / "hardware" / "simba.yaml";

AffineExpr d(int i) { return AffineExpr::dim(i); }

Node gemm(const std::string& name, TensorPtr x, TensorPtr w, TensorPtr y) {
  return make_computation(name, "Gemm", {std::move(x), std::move(w)}, {std::move(y)},
                          {AffineMap(3, {d(0), d(1)}), AffineMap(3, {d(1), d(2)}), AffineMap(3, {d(0), d(2)})});
}

Workload small_swiglu() {
  auto t = [](const std::string& n, std::vector<std::int64_t> shape) { return make_tensor(n, DType::bf16, std::move(shape)); };
  auto x = t("input", {16, 64}), w1 = t("weights_1", {64, 128}), w2 = t("weights_2", {64, 128}), w3 = t("weights_3", {128, 64});
  auto left = t("left", {16, 128}), right = t("right", {16, 128}), sw = t("left_swished", {16, 128});
  auto mid = t("intermediate", {16, 128}), out = t("output", {16, 64});
  const auto id = AffineMap::identity(2);
  return Workload({make_in_edge("input", x), make_in_edge("weights_1", w1), make_in_edge("weights_2", w2),
                   make_in_edge("weights_3", w3), gemm("Gemm_Left", x, w1, left), gemm("Gemm_Right", x, w2, right),
                   make_computation("Silu", "Silu", {left}, {sw}, {id, id}),
                   make_computation("Elt_Mul", "Mul", {sw, right}, {mid}, {id, id, id}),
                   gemm("Gemm_Down", mid, w3, out), make_out_edge("output", out)});
}

}  // namespace

TEST(MappingSearch, ParsesTheSpec) {
  const auto s = pipeline::parse_search_spec("search?max=3&seq_tile=4&emb_tile=16&hidden_tile=32&rows=2&cols=16");
  EXPECT_EQ(s.max, 3u);
  EXPECT_EQ(s.generator.seq_len_tile_size, 4);
  EXPECT_EQ(s.generator.embedding_tile_size, 16);
  EXPECT_EQ(s.generator.hidden_tile_size, 32);
  EXPECT_EQ(s.generator.nb_rows, 2);
  EXPECT_EQ(s.generator.nb_cols, 16);
  EXPECT_EQ(pipeline::parse_search_spec("search").max, 20u);  // optimize_mapping's default
  EXPECT_THROW((void)pipeline::parse_search_spec("search?max=0"), Error);
  EXPECT_THROW((void)pipeline::parse_search_spec("search?tiles=4"), Error);
  EXPECT_FALSE(pipeline::is_search_spec("searching.yaml"));
  EXPECT_EQ(pipeline::parse_search_spec("search").generator.ordering, mapping::MappingOrder::UtilizationDescending);
  const auto r = pipeline::parse_search_spec("search?order=random&seed=7");
  EXPECT_EQ(r.generator.ordering, mapping::MappingOrder::Random);
  EXPECT_EQ(r.generator.shuffle_seed, 7u);
  EXPECT_EQ(pipeline::parse_search_spec("search?order=random").generator.shuffle_seed, 42u);  // the reference's
  EXPECT_EQ(pipeline::parse_search_spec("search?order=ascending").generator.ordering, mapping::MappingOrder::UtilizationAscending);
  EXPECT_THROW((void)pipeline::parse_search_spec("search?order=sideways"), Error);
  EXPECT_THROW((void)pipeline::parse_search_spec("search?seed=-1"), Error);
  EXPECT_THROW((void)pipeline::parse_search_spec("search?seed=4294967296"), Error);
}

// max=3: the first three variants that take all 36 chiplets, in product order (L fastest last):
// (L,R,Silu,Mul,Down) totals (4,8,4,4,16), (4,16,4,4,8), (8,4,4,4,16) (options as in
// mapping_generator_test: Gemm (4,1), (4,2), (4,4); Silu/Mul (1), (4)).
TEST(MappingSearch, BestIsTheFirstStrictlyLowestLatency) {
  const auto acc = hardware::load_accelerator(kSimba);
  const Workload w = small_swiglu();
  const auto spec = pipeline::parse_search_spec("search?max=3&seq_tile=4&emb_tile=16&hidden_tile=32");
  const auto result = pipeline::search_mapping(w, acc, spec);
  ASSERT_EQ(result.variants.size(), 3u);
  EXPECT_EQ(result.variants[2].tag, "Gemm_Left_D0x4_D2x2__Gemm_Right_D0x4_D2x1__Silu_D0x4__Elt_Mul_D0x4__Gemm_Down_D0x4_D2x4");
  // The expectation: each variant run on its own (cols 8 is also nb_cols_to_use).
  auto options = spec.generator;
  options.max_variants = 3;
  const auto variants = mapping::generate_mapping_variants(w, acc, options);
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < 3; ++i) {
    pipeline::RunSpec ro;
    ro.nb_cols_to_use = 8;
    ro.mapping_data = std::make_shared<const mapping::Mapping>(variants[i].mapping);
    const auto r = pipeline::run(w, acc, ro);
    ASSERT_TRUE(r.solved());
    EXPECT_EQ(result.variants[i].latency, static_cast<double>(r.total_latency)) << i;
    EXPECT_TRUE(result.variants[i].reason.empty());
    if (!best || result.variants[i].latency < result.variants[*best].latency) best = i;
  }
  ASSERT_TRUE(result.best.has_value());
  EXPECT_EQ(*result.best, *best);
  EXPECT_EQ(result.best_run->total_latency, static_cast<std::int64_t>(result.variants[*best].latency));
  EXPECT_EQ(result.best_mapping->layers[0].cores(), variants[*best].mapping.layers[0].cores());
}

TEST(MappingSearch, NotSwigluShapedIsAnError) {
  const auto acc = hardware::load_accelerator(kSimba);
  auto x = make_tensor("x", DType::bf16, {4, 4}), y = make_tensor("y", DType::bf16, {4, 4});
  const Workload relu({make_in_edge("x", x),
                       make_computation("r", "Relu", {x}, {y}, {AffineMap::identity(2), AffineMap::identity(2)}),
                       make_out_edge("y", y)});
  try {
    (void)pipeline::search_mapping(relu, acc, pipeline::parse_search_spec("search"));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("not a SwiGLU-shaped workload"), std::string::npos) << e.message();
  }
}

// Running out of memory in one variant ends the search with that error: recorded as the variant's
// failure, the search went on and named the best of the others, an answer that depends on how
// much memory was free. (The second variant's first progress line stands in for the allocation
// that failed: in_step turns a bad_alloc into the same OutOfMemory.)
TEST(MappingSearch, OutOfMemoryInAVariantIsTheSearchsError) {
  const auto acc = hardware::load_accelerator(kSimba);
  const auto spec = pipeline::parse_search_spec("search?max=3&seq_tile=4&emb_tile=16&hidden_tile=32");
  pipeline::RunEnv env;
  int group0_starts = 0;  // each variant's run starts by costing group 0
  env.progress = [&](const std::string& line) {
    if (line.rfind("group 0: ", 0) == 0 && line.find("costing") != std::string::npos && ++group0_starts == 2)
      throw OutOfMemory("allocation");
  };
  EXPECT_THROW((void)pipeline::search_mapping(small_swiglu(), acc, spec, {}, env), OutOfMemory);
  EXPECT_EQ(group0_starts, 2);
}
