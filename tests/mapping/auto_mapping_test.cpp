// The automatic mapping (spec §3.2) on the 2-conv fixture, built by hand with the IR: Conv dims
// (b, ox, oy, fx, fy, c, k) = D0..D6 as the reference's ONNX Conv parser orders them.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>

#include "stream/hardware/accelerator_reader.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/auto_mapping.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace fs = std::filesystem;
using namespace stream;
using namespace stream::mapping;

namespace {

const fs::path kHardware = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs" / "hardware";

AffineExpr d(int i) { return AffineExpr::dim(i); }

/// 3x3 conv, stride 1, pad 1, in the reference's dim order (b, ox, oy, fx, fy, c, k).
Node conv(const std::string& name, TensorPtr in, TensorPtr w, TensorPtr out) {
  return make_computation(name, "Conv", {std::move(in), std::move(w)}, {std::move(out)},
                          {AffineMap(7, {d(0), d(5), d(2) + d(4) - 1, d(1) + d(3) - 1}),
                           AffineMap(7, {d(6), d(5), d(4), d(3)}), AffineMap(7, {d(0), d(6), d(2), d(1)})});
}

/// 2conv_1_32_32_8_16_32_3: input 1x8x32x32, Conv1 8->16, Conv2 16->32, 3x3 kernels.
Workload two_conv() {
  auto x = make_tensor("input", DType::f32, {1, 8, 32, 32});
  auto w1 = make_tensor("weights_1", DType::f32, {16, 8, 3, 3});
  auto y = make_tensor("conv1_out", DType::f32, {1, 16, 32, 32});
  auto w2 = make_tensor("weights_2", DType::f32, {32, 16, 3, 3});
  auto z = make_tensor("output", DType::f32, {1, 32, 32, 32});
  return Workload({make_in_edge("input", x), make_in_edge("weights_1", w1), make_in_edge("weights_2", w2),
                   conv("Conv1", x, w1, y), conv("Conv2", y, w2, z), make_out_edge("output", z)});
}

}  // namespace

TEST(AutoMapping, FactorSplitByGcdParallelFirst) {
  // Conv dims b1, ox32, oy32, fx3, fy3, c8, k16; parallel: b, ox, oy, k.
  const std::vector<std::int64_t> sizes{1, 32, 32, 3, 3, 8, 16};
  const std::vector<bool> parallel{true, true, true, false, false, false, true};
  const std::vector<bool> none(7, false);
  EXPECT_EQ(factor_split(sizes, parallel, none, 4), (std::vector<DimSplit>{{1, 4}}));
  EXPECT_EQ(factor_split(sizes, parallel, none, 36), (std::vector<DimSplit>{{1, 4}, {3, 3}, {4, 3}}));
  // Protecting ox moves the 4-way split to oy.
  std::vector<bool> prot(7, false);
  prot[1] = true;
  EXPECT_EQ(factor_split(sizes, parallel, prot, 4), (std::vector<DimSplit>{{2, 4}}));
  // 5 cores: no dim size shares a factor with 5.
  EXPECT_TRUE(factor_split(sizes, parallel, none, 5).empty());
}

TEST(AutoMapping, TwoConvOnTpuLikeQuadCore) {
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  const Workload wl = two_conv();
  const Mapping m = generate_mapping(wl, acc);
  ASSERT_EQ(m.layers.size(), 2u);
  for (const auto& l : m.layers) {
    SCOPED_TRACE(l.name);
    EXPECT_EQ(l.cores(), (std::vector<int>{0, 1, 2, 3}));  // generic cores; pooling/simd are specialised
    EXPECT_EQ(l.splits(), (std::vector<DimSplit>{{1, 4}}));  // D1 split 4
  }
  EXPECT_EQ(m.layers[0].name, "Conv1");
  ASSERT_EQ(m.fused_groups.size(), 1u);
  EXPECT_EQ(m.fused_groups[0].name, "Fused_Group_1");
  EXPECT_EQ(m.fused_groups[0].layers, (std::vector<std::string>{"Conv1", "Conv2"}));
  // Everything fits in half of 2 MB: one steady-state tile, Conv1.D0 (b = 1) tile 1.
  ASSERT_EQ(m.fused_groups[0].intra_core_tiling.size(), 1u);
  EXPECT_EQ(m.fused_groups[0].intra_core_tiling[0], (TileEntry{"Conv1", 0, 1}));
  // The generated mapping is a valid mapping file and passes the workload/accelerator check.
  const Mapping back = parse_mapping_text(to_yaml(m), "generated.yaml");
  EXPECT_EQ(back.layers[1].inter_core_tiling, m.layers[1].inter_core_tiling);
  Diagnostics diag;
  check_mapping(back, wl, acc, diag);
  EXPECT_FALSE(diag.has_errors());
}

TEST(AutoMapping, TwoConvOnSimba) {
  const auto acc = hardware::load_accelerator(kHardware / "simba.yaml");
  const Mapping m = generate_mapping(two_conv(), acc);
  ASSERT_EQ(m.layers.size(), 2u);
  for (const auto& l : m.layers) {
    SCOPED_TRACE(l.name);
    EXPECT_EQ(l.cores().size(), 36u);  // every chiplet, not the DRAM core
    EXPECT_EQ(l.splits(), (std::vector<DimSplit>{{1, 4}, {3, 3}, {4, 3}}));  // D1x4, D3x3, D4x3
  }
}

TEST(AutoMapping, CoreSelectionBySpecialisation) {
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  Node pool;
  pool.type = "MaxPool";
  EXPECT_EQ(select_cores(pool, acc), (std::vector<int>{4}));
  Node relu;
  relu.type = "Relu";
  EXPECT_EQ(select_cores(relu, acc), (std::vector<int>{5}));
  Node conv_node;
  conv_node.type = "Conv";
  bool fallback = true;
  EXPECT_EQ(select_cores(conv_node, acc, &fallback), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_FALSE(fallback);
  // Ironwood has no generic core: a Conv goes to the MXUs (specialised), a Transpose to every
  // compute core with a warning flag.
  const auto tpu7 = hardware::load_accelerator(kHardware / "tpu_v7_ironwood.yaml");
  EXPECT_EQ(select_cores(conv_node, tpu7).size(), 32u);
  Node transpose;
  transpose.type = "Transpose";
  EXPECT_EQ(select_cores(transpose, tpu7, &fallback).size(), 36u);
  EXPECT_TRUE(fallback);
}

TEST(AutoMapping, ExcludedCoresFallThroughToTheNextClass) {
  // The pipeline's memory fallback: without the SIMD core (5) a Relu goes to the generic TPU cores,
  // without the pooling core (4) a MaxPool too; a Conv never used them and keeps the TPU cores.
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  Node relu;
  relu.type = "Relu";
  Node pool;
  pool.type = "MaxPool";
  Node conv_node;
  conv_node.type = "Conv";
  const std::vector<int> tpus{0, 1, 2, 3};
  EXPECT_EQ(select_cores(relu, acc, nullptr, {5}), tpus);
  EXPECT_EQ(select_cores(pool, acc, nullptr, {4, 5}), tpus);
  EXPECT_EQ(select_cores(conv_node, acc, nullptr, {5}), tpus);
  EXPECT_EQ(select_cores(pool, acc, nullptr, {5}), (std::vector<int>{4}));
  // Excluding a generic core removes it like any other: the Conv then has three candidates.
  EXPECT_EQ(select_cores(conv_node, acc, nullptr, {0}), (std::vector<int>{1, 2, 3}));
  // Ironwood has no generic core: without one MXU a Conv keeps the other 31; an op no core lists
  // goes to every compute core but the excluded one, with the fallback flag.
  const auto tpu7 = hardware::load_accelerator(kHardware / "tpu_v7_ironwood.yaml");
  const auto mxus = select_cores(conv_node, tpu7);
  const auto without_first = select_cores(conv_node, tpu7, nullptr, {mxus.front()});
  EXPECT_EQ(without_first, std::vector<int>(mxus.begin() + 1, mxus.end()));
  Node transpose;
  transpose.type = "Transpose";
  bool fallback = false;
  EXPECT_EQ(select_cores(transpose, tpu7, &fallback, {mxus.front()}).size(), 35u);
  EXPECT_TRUE(fallback);
  // A node that only excluded cores can run keeps them: without all 32 MXUs a Conv stays on the
  // MXUs (the VPUs do not list Conv), with no fallback flag.
  fallback = true;
  EXPECT_EQ(select_cores(conv_node, tpu7, &fallback, mxus), mxus);
  EXPECT_FALSE(fallback);
}

TEST(AutoMapping, CallerTilingDisablesAutomaticTiling) {
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  AutoMappingOptions opt;
  opt.intra_core_tiling = parse_tiling_spec("Conv2.D2=8,Other.D0=1");
  const Mapping m = generate_mapping(two_conv(), acc, opt);
  EXPECT_EQ(m.fused_groups[0].intra_core_tiling, (std::vector<TileEntry>{{"Conv2", 2, 8}}));
}

TEST(AutoMapping, CapacityTilerShrinksUntilHalfCapacity) {
  // A Gemm whose operands (3 x 2048x2048 f32 = 402,653,184 bits) far exceed half of a single
  // pooling-free tpu_like core's 2 MB; the tiler must bring the per-core working set under
  // 8,388,608 bits with at most 1024 steady-state tiles.
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  auto a = make_tensor("A", DType::f32, {2048, 2048});
  auto b = make_tensor("B", DType::f32, {2048, 2048});
  auto c = make_tensor("C", DType::f32, {2048, 2048});
  const Workload wl({make_in_edge("A", a), make_in_edge("B", b),
                     make_computation("mm", "Gemm", {a, b}, {c},
                                      {AffineMap(3, {d(0), d(1)}), AffineMap(3, {d(1), d(2)}), AffineMap(3, {d(0), d(2)})}),
                     make_out_edge("C", c)});
  const Mapping m = generate_mapping(wl, acc);
  ASSERT_EQ(m.layers.size(), 1u);
  // Dims (m, k, n): parallel m, n first; 4 cores -> m split 4.
  EXPECT_EQ(m.layers[0].splits(), (std::vector<DimSplit>{{0, 4}}));
  const auto& tiles = m.fused_groups[0].intra_core_tiling;
  ASSERT_FALSE(tiles.empty());
  // Recompute the resident working set by hand from the emitted tiles.
  std::int64_t per_core[3] = {2048 / 4, 2048, 2048};
  std::int64_t resident[3] = {per_core[0], per_core[1], per_core[2]};
  for (const auto& t : tiles) {
    EXPECT_EQ(t.node, "mm");
    ASSERT_GE(t.dim, 0);
    ASSERT_LT(t.dim, 3);
    EXPECT_EQ(per_core[t.dim] % t.tile, 0);
    resident[t.dim] = t.tile;
  }
  // Reduction loops (k, dim 1) are emitted innermost: an output is irrelevant to them, and an outer
  // one would make the forced-reuse rule pin every tile inside it.
  bool seen_parallel = false;
  for (const auto& t : tiles) {
    if (t.dim != 1) seen_parallel = true;
    else EXPECT_FALSE(seen_parallel) << "the k entry must precede the m/n entries";
  }
  const double bits = 32.0 * static_cast<double>(resident[0] * resident[1] + resident[1] * resident[2] + resident[0] * resident[2]);
  EXPECT_LE(bits, 0.5 * 16777216);
  const std::int64_t steady = (per_core[0] / resident[0]) * (per_core[1] / resident[1]) * (per_core[2] / resident[2]);
  EXPECT_LE(steady, 1024);
}

TEST(AutoMapping, CapacityTilerCountsTheWholeShareOfASingleCoreNode) {
  // Gemm A(1024x64) x B(64x1024) -> C (f32) splits m over the four TPU cores; the Relu C -> R runs
  // alone on the SIMD core (the only core listing Relu), so that core holds every m row of its
  // tiles, not a quarter: with m resident r_m (per TPU core) and n resident r_n, the SIMD core keeps
  // C and R tiles of 4*r_m x r_n f32, and 2 * 32 * 4*r_m*r_n must stay under half of 1,048,576 bits.
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  auto a = make_tensor("A", DType::f32, {1024, 64});
  auto b = make_tensor("B", DType::f32, {64, 1024});
  auto c = make_tensor("C", DType::f32, {1024, 1024});
  auto r = make_tensor("R", DType::f32, {1024, 1024});
  const AffineMap ma(3, {d(0), d(1)}), mb(3, {d(1), d(2)}), mo(3, {d(0), d(2)}), id(2, {d(0), d(1)});
  const Workload wl({make_in_edge("A", a), make_in_edge("B", b), make_computation("mm", "Gemm", {a, b}, {c}, {ma, mb, mo}),
                     make_computation("relu", "Relu", {c}, {r}, {id, id}), make_out_edge("R", r)});
  const Mapping m = generate_mapping(wl, acc);
  ASSERT_EQ(m.layers.size(), 2u);
  EXPECT_EQ(m.layers[0].splits(), (std::vector<DimSplit>{{0, 4}}));
  ASSERT_EQ(m.layers[1].core_allocation.size(), 1u);
  EXPECT_EQ(m.layers[1].core_allocation[0], (std::vector<int>{5}));
  std::int64_t resident_m = 1024 / 4, resident_n = 1024;
  for (const auto& t : m.fused_groups[0].intra_core_tiling) {
    if (t.node == "mm" && t.dim == 0) resident_m = t.tile;
    if ((t.node == "mm" && t.dim == 2) || (t.node == "relu" && t.dim == 1)) resident_n = t.tile;
  }
  EXPECT_LE(2.0 * 32.0 * 4.0 * static_cast<double>(resident_m * resident_n), 0.5 * 1048576.0);
}

TEST(AutoMapping, FusionTilingStreamsTheLargeIntermediate) {
  // Gemm1: A(3072x4) x B(4x3000) -> C(3072x3000, f32); Gemm2: C x D(3000x4) -> E(3072x4).
  // Both split m 4 ways (m is the largest parallel dim). C per core = 3072*3000*32/4 = 73,728,000
  // bits, over the budget 16,777,216/2; m is the only dim parallel in both Gemms that indexes C,
  // so it streams: 96,000 bits per m row per core, largest divisor of 768 with 96,000*t <= 8,388,608
  // is 64. With m resident at 64 the per-core set is 4,096 + 192,000 + 6,144,000 + 192,000 + 8,192
  // = 6,540,288 bits, under half the capacity: the capacity tiler keeps this tiling.
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  auto a = make_tensor("A", DType::bf16, {3072, 4});
  auto b = make_tensor("B", DType::bf16, {4, 3000});
  auto c = make_tensor("C", DType::f32, {3072, 3000});
  auto dd = make_tensor("D", DType::bf16, {3000, 4});
  auto e = make_tensor("E", DType::f32, {3072, 4});
  const AffineMap ma(3, {d(0), d(1)}), mb(3, {d(1), d(2)}), mo(3, {d(0), d(2)});
  const Workload wl({make_in_edge("A", a), make_in_edge("B", b), make_in_edge("D", dd),
                     make_computation("Gemm1", "Gemm", {a, b}, {c}, {ma, mb, mo}),
                     make_computation("Gemm2", "Gemm", {c, dd}, {e}, {ma, mb, mo}), make_out_edge("E", e)});
  const Mapping m = generate_mapping(wl, acc);
  ASSERT_EQ(m.layers.size(), 2u);
  EXPECT_EQ(m.layers[0].splits(), (std::vector<DimSplit>{{0, 4}}));
  EXPECT_EQ(m.layers[1].splits(), (std::vector<DimSplit>{{0, 4}}));
  EXPECT_EQ(m.fused_groups[0].intra_core_tiling, (std::vector<TileEntry>{{"Gemm1", 0, 64}}));
}

TEST(AutoMapping, CheckMappingFindsProblems) {
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  const Workload wl = two_conv();
  const Mapping m = parse_mapping_text(
      "layers:\n"
      "- name: Conv1\n  core_allocation: [[0, 6, 9]]\n  inter_core_tiling: [[{dim: D7, split: 3}]]\n"
      "fused_groups:\n- name: G\n  layers: [Conv1]\n  intra_core_tiling: [{dim: Conv3.D0, tile: 1}]\n",
      "m.yaml");
  Diagnostics diag;
  check_mapping(m, wl, acc, diag);
  const auto errors = diag.errors();
  auto has = [&](const std::string& s) {
    return std::any_of(errors.begin(), errors.end(), [&](const Diagnostic& e) { return e.message.find(s) != std::string::npos; });
  };
  EXPECT_TRUE(has("core 6 (offchip) cannot run computations"));
  EXPECT_TRUE(has("core 9 does not exist"));
  EXPECT_TRUE(has("D7 does not exist"));
  EXPECT_TRUE(has("No mapping data found for node 'Conv2'"));
  EXPECT_TRUE(has("names node 'Conv3', which is not in the workload"));
  EXPECT_EQ(errors.size(), 5u);
  for (const auto& e : errors) EXPECT_EQ(e.where.file, "m.yaml");
}

TEST(AutoMapping, SplitsOf2To31OrLargerThanTheDimensionAreErrors) {
  // Conv1's D1 (ox) has 32 iterations: a split of 33 leaves cores with nothing, a split of 2^31
  // drove the tiler into billions of parts. Both were warnings (exit 0); now errors naming the
  // layer, the node and the split, at the entry's line.
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  const Workload wl = two_conv();
  for (const std::string split : {"33", "2147483648"}) {
    SCOPED_TRACE(split);
    const Mapping m = parse_mapping_text("layers:\n- name: Conv\n  core_allocation: [[0, 1, 2, 3]]\n"
                                         "  inter_core_tiling: [[{dim: D1, split: " + split + "}]]\n",
                                         "m.yaml");
    Diagnostics diag;
    check_mapping(m, wl, acc, diag);
    const auto errors = diag.errors();
    ASSERT_EQ(errors.size(), 2u);  // Conv1 and Conv2 both match the entry
    EXPECT_NE(errors[0].message.find("layer 'Conv' (node 'Conv1'): split " + split + " of D1 exceeds its size 32"),
              std::string::npos)
        << errors[0].message;
    EXPECT_EQ(errors[0].where.file, "m.yaml");
    EXPECT_EQ(errors[0].where.line, 2);
  }
}

TEST(AutoMapping, CapacityTilerSizesATensorByItsWidestReader) {
  // A residual block: X -> Conv1 -> Conv2 -> Add(X, conv2_out). Conv2 reads conv1_out through a
  // halo (oy + fy - 1), so conv1's and conv2's spatial dims stay separate: X is read along its rows
  // by Conv1 through conv1's oy and by the Add through conv2's oy. The tiled workload gives X the
  // larger of the two extents per axis, so the SIMD core (1 Mbit, the only core listing Add) must
  // see X, conv2_out and the sum fit in half its memory with both readers' dims tiled, not one.
  // One channel, so that no shared channel dim can shrink every tensor at once.
  const auto acc = hardware::load_accelerator(kHardware / "tpu_like_quad_core.yaml");
  auto x = make_tensor("X", DType::f32, {1, 1, 256, 256});
  auto w1 = make_tensor("W1", DType::f32, {1, 1, 3, 3});
  auto y1 = make_tensor("Y1", DType::f32, {1, 1, 256, 256});
  auto w2 = make_tensor("W2", DType::f32, {1, 1, 3, 3});
  auto y2 = make_tensor("Y2", DType::f32, {1, 1, 256, 256});
  auto z = make_tensor("Z", DType::f32, {1, 1, 256, 256});
  const AffineMap id4(4, {d(0), d(1), d(2), d(3)});
  const Workload wl({make_in_edge("X", x), make_in_edge("W1", w1), make_in_edge("W2", w2), conv("Conv1", x, w1, y1),
                     conv("Conv2", y1, w2, y2), make_computation("Add", "Add", {x, y2}, {z}, {id4, id4, id4}),
                     make_out_edge("Z", z)});
  const Mapping m = generate_mapping(wl, acc);
  ASSERT_EQ(m.layers[2].cores(), (std::vector<int>{5}));
  // The steady-state tensors the Add's core holds, from the tiling module's own shape rule.
  mapping::GroupMapping gm;
  gm.nodes.resize(wl.size());
  for (std::size_t i : wl.computation_nodes()) {
    const auto& lm = m.for_node(wl.node(i));
    gm.nodes[i].cores = lm.cores();
    gm.nodes[i].inter_core_tiling = lm.splits();
  }
  for (const auto& t : m.fused_groups[0].intra_core_tiling) gm.intra_core_tiling.push_back({t.node, t.dim, t.tile});
  const tiling::TiledGroup tiled = tiling::tile(wl, gm);
  std::int64_t bits = 0;
  for (const auto& t : tiled.workload.tensors())
    if (t->name == "X" || t->name == "Y2" || t->name == "Z") bits += t->size_bits();
  // Half of 1,048,576 bits, plus X's 2-row halo on a tile (Conv1's oy + fy - 1) that the tiler's
  // estimate ignores: at most 2 extra rows of 16 x 64 f32 per tile.
  std::string tiles;
  for (const auto& t : m.fused_groups[0].intra_core_tiling) tiles += t.node + ".D" + std::to_string(t.dim) + "=" + std::to_string(t.tile) + " ";
  EXPECT_LE(bits, 524288 + 2 * 16 * 64 * 32) << "tiles: " << tiles;
  EXPECT_GT(tiled.iterations(), 1);
}
