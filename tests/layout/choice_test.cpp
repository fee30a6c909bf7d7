// `--layout choose` (layout/choice.hpp) with figures derived by hand. The hardware is
// tpu_like_quad_core whose off-chip bus (128 bits/cycle) has dma {burst_bits 256, setup_cycles 10}
// (no strides: a descriptor per run), bf16 tensors; a box of R runs of b bits costs
// R x 10 + ceil(R x ceil(b / 256) x 256 / 128) cycles (docs/layout.md, "Pricing a transfer").
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/layout/candidates.hpp>
#include <stream/layout/prices.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/report/layouts_file.hpp>
#include <stream/report/summary.hpp>

#include "dma_hardware.hpp"
#include "stream_cli.hpp"
#include "../schedule/two_conv_fixture.hpp"

namespace fs = std::filesystem;
using namespace stream;
using stream::test::tpu_with_bus_dma;

namespace {

const std::string kHardware = std::string(STREAM_INPUTS_DIR) + "/hardware";
const std::string kDma = "{burst_bits: 256, setup_cycles: 10}";

AffineMap dims(int n, std::vector<int> d) { return AffineMap::of_dims(n, d); }

// scores[i, j] = sum_k Q[i, k] K[j, k]: K read transposed (the folded Transpose), loops
// (d0 i = 16, d1 j = 32, d2 k = 64).
Workload attention_scores() {
  auto q = make_tensor("Q", DType::bf16, {16, 64}), k = make_tensor("K", DType::bf16, {32, 64});
  auto s = make_tensor("S", DType::bf16, {16, 32});
  return Workload({make_in_edge("Q", q), make_in_edge("K", k),
                   make_computation("scores", "MatMul", {q, k}, {s}, {dims(3, {0, 2}), dims(3, {1, 2}), dims(3, {0, 1})}),
                   make_out_edge("S_out", s)});
}

// A 1x1 convolution O[n, k, y, x] = sum_c I[n, c, y, x] W[c, k] whose weights are stored [C, K]
// (the other order than the [K, C] the layer walks), loops (n 1, k 32, y 8, x 8, c 16).
Workload pointwise_conv() {
  auto in = make_tensor("I", DType::bf16, {1, 16, 8, 8}), w = make_tensor("W", DType::bf16, {16, 32});
  auto out = make_tensor("O", DType::bf16, {1, 32, 8, 8});
  return Workload({make_in_edge("I", in), make_in_edge("W", w),
                   make_computation("conv", "Conv", {in, w}, {out},
                                    {dims(5, {0, 4, 2, 3}), dims(5, {4, 1}), dims(5, {0, 1, 2, 3})}),
                   make_out_edge("O_out", out)});
}

// Y = rows(X), Z = cols(Y), two element-wise nodes in a group each: `rows` is tiled over rows
// (d0, 2 per iteration) so it writes Y in [2, C] boxes, `cols` over columns (d1, 8 per iteration)
// so it reads Y in [R, 8] boxes.
Workload rows_then_columns(std::int64_t rows, std::int64_t columns) {
  auto x = make_tensor("X", DType::bf16, {rows, columns}), y = make_tensor("Y", DType::bf16, {rows, columns});
  auto z = make_tensor("Z", DType::bf16, {rows, columns});
  return Workload({make_in_edge("X", x),
                   make_computation("rows", "Relu", {x}, {y}, {AffineMap::identity(2), AffineMap::identity(2)}),
                   make_computation("cols", "Relu", {y}, {z}, {AffineMap::identity(2), AffineMap::identity(2)}),
                   make_out_edge("Z_out", z)});
}

pipeline::RunSpec rows_then_columns_options(layout::LayoutMode mode) {
  pipeline::RunSpec o;
  o.layout = mode;
  o.cut_mode = pipeline::CutMode::PerLayer;
  o.intra_core_tiling = {{"rows", 0, 2}, {"cols", 1, 8}};
  return o;
}

// S1 = Q1 K^T and S2 = Q2 K^T in a group each, both tiled over k (2 per iteration, 32
// iterations), so K [32, 64] is read twice in [32, 2] boxes.
Workload two_scores_reading_k() {
  auto q1 = make_tensor("Q1", DType::bf16, {16, 64}), q2 = make_tensor("Q2", DType::bf16, {16, 64});
  auto k = make_tensor("K", DType::bf16, {32, 64});
  auto s1 = make_tensor("S1", DType::bf16, {16, 32}), s2 = make_tensor("S2", DType::bf16, {16, 32});
  return Workload({make_in_edge("Q1", q1), make_in_edge("Q2", q2), make_in_edge("K", k),
                   make_computation("scores1", "MatMul", {q1, k}, {s1}, {dims(3, {0, 2}), dims(3, {1, 2}), dims(3, {0, 1})}),
                   make_computation("scores2", "MatMul", {q2, k}, {s2}, {dims(3, {0, 2}), dims(3, {1, 2}), dims(3, {0, 1})}),
                   make_out_edge("S1_out", s1), make_out_edge("S2_out", s2)});
}

pipeline::RunSpec choose_with(std::vector<mapping::TileEntry> tiling) {
  pipeline::RunSpec o;
  o.layout = layout::LayoutMode::Choose;
  o.intra_core_tiling = std::move(tiling);
  return o;
}

const layout::LayoutChoice& choice(const pipeline::RunResult& r, const std::string& tensor) {
  const auto it = std::find_if(r.layout.choices.begin(), r.layout.choices.end(), [&](const auto& c) { return c.tensor == tensor; });
  if (it == r.layout.choices.end()) throw std::runtime_error("no choice for " + tensor);
  return *it;
}

const pipeline::GroupResult& conversion_of(const pipeline::RunResult& r, const std::string& tensor) {
  const auto it = std::find_if(r.groups.begin(), r.groups.end(), [&](const auto& g) { return g.converts == tensor; });
  if (it == r.groups.end()) throw std::runtime_error("no conversion group for " + tensor);
  return *it;
}

}  // namespace

TEST(LayoutChoice, TheModelWinsTiesThenTheFirstOption) {
  std::vector<layout::LayoutOption> o(3);
  o[0].transfer_cycles = 10;
  o[1].transfer_cycles = 4, o[1].conversion_cycles = 6;  // 10: a tie, the model stays
  o[2].transfer_cycles = 10;
  EXPECT_EQ(layout::cheapest_option(o), 0u);
  o[2].transfer_cycles = 9;
  o.push_back(o[2]);
  EXPECT_EQ(layout::cheapest_option(o), 2u);
}

TEST(LayoutChoice, EqualCyclesGoToTheOptionOfLessEnergy) {
  std::vector<layout::LayoutOption> o(3);
  for (auto& x : o) x.transfer_cycles = 10;
  o[0].transfer_energy = 100;
  o[1].transfer_energy = 60;
  o[2].transfer_energy = 50, o[2].conversion = layout::Conversion::Core;  // unpriced: never chosen
  EXPECT_EQ(layout::cheapest_option(o), 1u);
  o[2].conversion_priced = true;
  EXPECT_EQ(layout::cheapest_option(o), 2u);
  // Energies equal but for the rounding of their sums are a tie: the earlier option stays.
  o[2].transfer_energy = 60 * (1 + 1e-12);
  o[2].conversion_energy = 0;
  EXPECT_EQ(layout::cheapest_option(o), 1u);
  // Cycles come first: one cycle fewer wins over any energy.
  o[0].transfer_cycles = 9;
  EXPECT_EQ(layout::cheapest_option(o), 0u);
}

TEST(LayoutChoice, AModeOtherThanFixedOrChooseIsABadInput) {
  EXPECT_EQ(layout::parse_layout_mode("choose", "--layout"), layout::LayoutMode::Choose);
  try {
    (void)layout::parse_layout_mode("best", "--layout");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(e.message().find("--layout: unknown layout mode 'best'"), std::string::npos) << e.message();
  }
}

TEST(LayoutChoice, AReaderPrefersTheOrderItsMapWalks) {
  const Workload w = attention_scores();
  const Tensor& q = *w.node(2).inputs[0];
  const Tensor& k = *w.node(2).inputs[1];
  auto walked = [&](std::int64_t k_tile) {
    mapping::GroupMapping m;
    m.nodes.resize(w.size());
    m.nodes[2] = {{0}, {}};
    if (k_tile < 64) m.intra_core_tiling = {{"scores", 2, k_tile}};
    const auto tiled = tiling::tile(w, m);
    return std::make_pair(layout::walk_layout(w, tiled, 2, q).str(2), layout::walk_layout(w, tiled, 2, k).str(2));
  };
  // Untiled the loops are walked i, j, k: k, the innermost, steps both Q's and K's last axis.
  EXPECT_EQ(walked(64), std::make_pair(std::string("(0,1)"), std::string("(0,1)")));
  // Tiled over k (8 per iteration) k is walked outermost: both prefer k outermost, (1,0).
  EXPECT_EQ(walked(8), std::make_pair(std::string("(1,0)"), std::string("(1,0)")));
}

TEST(LayoutChoice, AttentionReadingKTransposedConvertsKOnce) {
  const auto acc = tpu_with_bus_dma(kDma);
  const auto r = pipeline::run(attention_scores(), acc, choose_with({{"scores", 2, 8}}));
  ASSERT_TRUE(r.solved());
  // K [32, 64], 8 iterations of a [32, 8] box. Row-major: 32 runs of 8 x 16 = 128 bits, one burst
  // each: 32 x 10 + 32 x 256 / 128 = 384 per iteration, 3,072 in all. Read in the walk's (1,0):
  // one run of 256 x 16 = 4,096 bits, 16 bursts: 10 + 32 = 42, 336 in all.
  const auto& k = choice(r, "K");
  ASSERT_EQ(k.options.size(), 3u);
  EXPECT_EQ(k.options[0].from, "model");
  EXPECT_EQ(k.options[0].transfer_cycles, 3072);
  EXPECT_EQ(k.options[1].from, "reader scores");
  EXPECT_EQ(k.options[1].layout.str(2), "(1,0)");
  EXPECT_EQ(k.options[1].transfer_cycles, 336);
  EXPECT_EQ(k.options[1].conversion, layout::Conversion::Core);
  // The scores node covers k by 8 of 64: its blocked order (1,0,1:8) (8 blocks, j, 8 within) makes
  // the [32, 8] box one run of 256 too, 336 in all, and ties with (1,0), which is listed first.
  EXPECT_EQ(k.options[2].from, "reader scores blocked");
  EXPECT_EQ(k.options[2].layout.str(2), "(1,0,1:8)");
  EXPECT_EQ(k.options[2].transfer_cycles, 336);
  EXPECT_EQ(k.options[2].conversion_cycles, k.options[1].conversion_cycles);
  // The conversion group reads K whole (32,768 bits, one run: 10 + 256) and writes it whole in
  // (1,0) (the same): at least 2 x 266 cycles, and far below the 2,736 it saves.
  const auto& conv_k = conversion_of(r, "K");
  EXPECT_EQ(k.options[1].conversion_cycles, conv_k.allocation.total_latency);
  EXPECT_GE(conv_k.allocation.total_latency, 2 * 266);
  EXPECT_LT(conv_k.allocation.total_latency, 3072 - 336);
  EXPECT_EQ(k.chosen, 1u);
  // Q [16, 64], a [16, 8] box: 16 x 10 + 16 x 2 = 192 per iteration (1,536) row-major, one run of
  // 2,048 bits in (1,0): 10 + 16 = 26 (208); its conversion moves 16,384 bits twice (2 x 138).
  const auto& q = choice(r, "Q");
  ASSERT_EQ(q.options.size(), 3u);
  EXPECT_EQ(q.options[0].transfer_cycles, 1536);
  EXPECT_EQ(q.options[1].transfer_cycles, 208);
  EXPECT_GE(q.options[1].conversion_cycles, 2 * 138);
  EXPECT_EQ(q.chosen, 1u);
  // The second pass: two conversion groups, then the scores group reading the converted tensors
  // at the hand-derived cost, each conversion node in its group's cost table.
  ASSERT_EQ(r.groups.size(), 3u);
  const auto& scores = r.groups.back();
  EXPECT_TRUE(scores.converts.empty());
  Layout col;
  col.order = {1, 0};
  EXPECT_EQ(layout::tensor_transfer_price(scores.schedule, scores.allocation, acc, "K_as_1_0", col).cycles, 336);
  EXPECT_EQ(layout::tensor_transfer_price(scores.schedule, scores.allocation, acc, "Q_as_1_0", col).cycles, 208);
  EXPECT_EQ(conv_k.costs.count("convert_K"), 1u);
  EXPECT_EQ(r.total_latency, conv_k.allocation.total_latency + conversion_of(r, "Q").allocation.total_latency +
                                 scores.allocation.total_latency);
  // The first pass is the fixed run; the choice pays off end to end.
  pipeline::RunSpec fixed = choose_with({{"scores", 2, 8}});
  fixed.layout = layout::LayoutMode::Fixed;
  EXPECT_EQ(r.layout.first_pass_latency, pipeline::run(attention_scores(), acc, fixed).total_latency);
  EXPECT_LT(r.total_latency, r.layout.first_pass_latency);
  // layouts.yaml of the scores group: the choice and the conversions it reads.
  const std::string layouts = report::layouts_yaml(r, scores, acc);
  EXPECT_NE(layouts.find("chosen: reader scores (conversion)"), std::string::npos) << layouts;
  EXPECT_NE(layouts.find("converted_from: K"), std::string::npos) << layouts;
  EXPECT_NE(layouts.find("node: convert_K, engine: core, tensor: K, to: K_as_1_0"), std::string::npos) << layouts;
  // The summary's conversion share.
  const std::string summary = report::summary_yaml(r, nullptr, nullptr);
  const std::int64_t conv = conv_k.allocation.total_latency + conversion_of(r, "Q").allocation.total_latency;
  EXPECT_NE(summary.find("layout_conversion_latency: " + std::to_string(conv)), std::string::npos) << summary;
  EXPECT_NE(summary.find("layout_conversion_latency_share:"), std::string::npos);
  EXPECT_NE(summary.find("layout_conversion_energy_share:"), std::string::npos);
}

TEST(LayoutChoice, AStridedDmaKeepsTheStridedRead) {
  // The same block with max_strides 1: one descriptor walks K's 32 runs of 128 bits (32 bursts):
  // 10 + 64 = 74 per iteration, 592 in all, against 42 (336) in (1,0). Saving 256 does not pay for
  // a conversion of at least 2 x 266 = 532. Q: 10 + 32 = 42 (336) against 26 (208), saving 128
  // against at least 2 x 138. Nothing changes: one group, the fixed run's figures.
  const auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10, max_strides: 1}");
  const auto r = pipeline::run(attention_scores(), acc, choose_with({{"scores", 2, 8}}));
  ASSERT_TRUE(r.solved());
  const auto& k = choice(r, "K");
  // A strided DMA on the off-chip bus can convert too: each conversion once on a core, once on
  // the DMA (docs/layout.md, "A conversion on the DMA"; copy_test.cpp has the runs).
  ASSERT_EQ(k.options.size(), 5u);
  EXPECT_EQ(k.options[0].transfer_cycles, 592);
  EXPECT_EQ(k.options[1].transfer_cycles, 336);
  EXPECT_EQ(k.options[1].conversion, layout::Conversion::Core);
  EXPECT_GE(k.options[1].conversion_cycles, 532);
  // Into (1,0) on the DMA: walking K's own order the read is one run of 32,768 bits (10 + 256 =
  // 266) and the write 2,048 runs of one 16-bit element, a burst each, one descriptor per 32
  // (32 x 10 + 2,048 x 256 / 128 = 4,416): 4,682 (walking (1,0) instead: 64 descriptors, 4,736 +
  // 266). Into (1,0,1:8), walking the target: 256 read runs of 8 (8 descriptors: 80 + 512 = 592)
  // and one written run (266): 858.
  EXPECT_EQ(k.options[2].conversion, layout::Conversion::Dma);
  EXPECT_EQ(k.options[2].conversion_cycles, 4682);
  EXPECT_EQ(k.options[4].layout.str(2), "(1,0,1:8)");
  EXPECT_EQ(k.options[4].conversion, layout::Conversion::Dma);
  EXPECT_EQ(k.options[4].conversion_cycles, 858);
  EXPECT_EQ(k.options[4].total(), 336 + 858);
  EXPECT_EQ(k.chosen, 0u);
  // Q [16, 64]: into (1,0,1:8) the read is 128 runs of 8 (80 + 256 = 336), the write one run of
  // 16,384 bits (10 + 128 = 138): 474, on top of 208, against the model's 336.
  const auto& q = choice(r, "Q");
  EXPECT_EQ(q.options.at(0).transfer_cycles, 336);
  EXPECT_EQ(q.options.at(1).transfer_cycles, 208);
  EXPECT_EQ(q.options.at(4).conversion_cycles, 474);
  EXPECT_EQ(q.chosen, 0u);
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_TRUE(r.layout.dma_conversions.empty());
  pipeline::RunSpec fixed = choose_with({{"scores", 2, 8}});
  fixed.layout = layout::LayoutMode::Fixed;
  EXPECT_EQ(r.total_latency, pipeline::run(attention_scores(), acc, fixed).total_latency);
}

TEST(LayoutChoice, ConvWeightsStoredInTheOtherOrderAreConverted) {
  const auto acc = tpu_with_bus_dma(kDma);
  const auto r = pipeline::run(pointwise_conv(), acc, choose_with({{"conv", 1, 2}}));
  ASSERT_TRUE(r.solved());
  // The automatic mapping splits k over the 4 TPU cores; a tile of 2 per core makes 4 iterations
  // of 8 output channels. W [16, 32]: a [16, 8] box, 16 runs of 128 bits row-major
  // (16 x 10 + 32 = 192, 768 in all); the layer walks k outermost, so (1,0): one run of 2,048 bits
  // (10 + 16 = 26, 104). The conversion moves 8,192 bits twice (at least 2 x (10 + 64)).
  const auto& w = choice(r, "W");
  ASSERT_EQ(w.options.size(), 3u);
  EXPECT_EQ(w.options[0].transfer_cycles, 4 * 192);
  EXPECT_EQ(w.options[1].from, "reader conv");
  EXPECT_EQ(w.options[1].transfer_cycles, 4 * 26);
  EXPECT_GE(w.options[1].conversion_cycles, 2 * 74);
  EXPECT_EQ(w.chosen, w.options[1].conversion_cycles < 768 - 104 ? 1u : 0u);
  // The layer's blocked order (1,0,1:8) (4 blocks of 8 output channels, c, 8 within) also makes
  // the box one run: 104, a tie that (1,0), listed first, wins.
  EXPECT_EQ(w.options[2].layout.str(2), "(1,0,1:8)");
  EXPECT_EQ(w.options[2].transfer_cycles, 4 * 26);
  // I is read whole (one run in any order): its walk order NHWC (n has extent 1, c the innermost
  // loop) costs what the model's does, plus a conversion: the model stays.
  const auto& in = choice(r, "I");
  ASSERT_EQ(in.options.size(), 2u);
  EXPECT_EQ(in.options[1].layout.str(4), "(0,2,3,1)");
  EXPECT_EQ(in.options[1].transfer_cycles, in.options[0].transfer_cycles);
  EXPECT_EQ(in.chosen, 0u);
  // O is a graph output: its caller reads the model's order.
  EXPECT_EQ(choice(r, "O").options.size(), 1u);
}

TEST(LayoutChoice, ABlockedOrderIsTheCompromiseAndEnergyBreaksTheTie) {
  // Bursts of 128 bits, the bus's width, and no setup cycles: a box costs its bursts in cycles
  // whatever its runs, and 5 pJ per run (a descriptor per run). Y [16, 32] is written in 8 boxes
  // [2, 32] and read in 4 boxes [16, 8]; cycles, pJ per layout (x8 writes + x4 reads):
  //   model (0,1)                write 1 run of 64 (8 bursts): 64, 40;  read 16 runs of 8: 64, 320
  //   rows blocked (0,1,0:2)     write 1 run: 64, 40;  read one run of 2 x 8 per 2-row block, 8: 64, 160
  //   cols (1,0)                 write 32 runs of 2: 256, 1,280;  read 1 run of 128: 64, 20
  //   cols blocked (1,0,1:8)     write one run of 2 x 8 per 8-column block, 4: 64, 160;  read 1 run: 64, 20
  // Three tie at 128 cycles; (1,0,1:8) spends least energy, 180 pJ. Converting rows' (0,1) into
  // (1,0) would also transfer 64 + 64 = 128, no fewer cycles than those, so it is not run.
  const auto acc = tpu_with_bus_dma("{burst_bits: 128, setup_cycles: 0, setup_energy: 5}");
  const auto r = pipeline::run(rows_then_columns(16, 32), acc, rows_then_columns_options(layout::LayoutMode::Choose));
  ASSERT_TRUE(r.solved());
  const auto& y = choice(r, "Y");
  ASSERT_EQ(y.options.size(), 6u);
  const std::vector<std::tuple<std::string, std::string, std::int64_t, double>> want{
      {"model", "(0,1)", 128, 360}, {"producer rows blocked", "(0,1,0:2)", 128, 200},
      {"reader cols", "(1,0)", 320, 1300}, {"reader cols blocked", "(1,0,1:8)", 128, 180}};
  for (std::size_t k = 0; k < want.size(); ++k) {
    const auto& [from, layout, cycles, energy] = want[k];
    EXPECT_EQ(y.options[k].from, from) << k;
    EXPECT_EQ(y.options[k].layout.str(2), layout) << k;
    EXPECT_EQ(y.options[k].transfer_cycles, cycles) << k;
    EXPECT_DOUBLE_EQ(y.options[k].transfer_energy, energy) << k;
  }
  EXPECT_EQ(y.options[4].from, "producer rows -> reader cols");
  EXPECT_EQ(y.options[4].transfer_cycles, 128);
  EXPECT_FALSE(y.options[4].conversion_priced);
  EXPECT_EQ(y.chosen, 3u);
  // Same cycles per transfer, so the same latency; 360 - 180 = 180 pJ less.
  const auto fixed = pipeline::run(rows_then_columns(16, 32), acc, rows_then_columns_options(layout::LayoutMode::Fixed));
  EXPECT_EQ(r.total_latency, fixed.total_latency);
  EXPECT_NEAR(r.total_energy, fixed.total_energy - 180, 1e-6);
  const std::string layouts = report::layouts_yaml(r, r.groups.back(), acc);
  EXPECT_NE(layouts.find("{from: reader cols blocked, layout: \"(1,0,1:8)\", transfer_cycles: 128, transfer_energy: 180, total: 128, energy: 180}"),
            std::string::npos)
      << layouts;
}

TEST(LayoutChoice, AProducerWritingRowsAndAReaderReadingColumnsConvertBetween) {
  // Y [64, 64], written in 32 boxes [2, 64] and read in 8 boxes [64, 8]; a box of R runs of b
  // bits costs R x 10 + bursts x 2 (one descriptor per run, bursts of 256 bits, 128 per cycle):
  //   model (0,1)              write 1 run of 2,048 bits: 26 x 32 = 832;  read 64 runs of 128: 768 x 8 = 6,144
  //   rows blocked (0,1,0:2)   write 832;  read 32 runs of 2 x 8 (256 bits): 384 x 8 = 3,072
  //   cols (1,0)               write 64 runs of 2: 768 x 32 = 24,576;  read 1 run of 8,192 bits: 74 x 8 = 592
  //   cols blocked (1,0,1:8)   write 8 runs of 2 x 8: 96 x 32 = 3,072;  read 592
  // The best single order costs 3,664. Written row-major and read (1,0): 832 + 592 = 1,424 plus
  // a conversion group that reads Y whole (65,536 bits, 10 + 512) and writes it whole: >= 1,044.
  const auto acc = tpu_with_bus_dma(kDma);
  const auto r = pipeline::run(rows_then_columns(64, 64), acc, rows_then_columns_options(layout::LayoutMode::Choose));
  ASSERT_TRUE(r.solved());
  const auto& y = choice(r, "Y");
  ASSERT_EQ(y.options.size(), 6u);
  EXPECT_EQ(y.options[0].transfer_cycles, 6976);
  EXPECT_EQ(y.options[1].transfer_cycles, 3904);
  EXPECT_EQ(y.options[2].transfer_cycles, 25168);
  EXPECT_EQ(y.options[3].transfer_cycles, 3664);
  const auto& conv = y.options[4];
  EXPECT_EQ(conv.from, "producer rows -> reader cols");
  EXPECT_EQ(conv.written.str(2), "(0,1)");
  EXPECT_EQ(conv.layout.str(2), "(1,0)");
  EXPECT_EQ(conv.transfer_cycles, 1424);
  EXPECT_GE(conv.conversion_cycles, 1044);
  EXPECT_LT(conv.conversion_cycles, 3664 - 1424);
  EXPECT_EQ(y.chosen, 4u);
  // The second pass: rows writes Y row-major, convert_Y rewrites it, cols reads Y_as_1_0.
  ASSERT_EQ(r.groups.size(), 3u);
  EXPECT_EQ(r.groups[1].converts, "Y");
  EXPECT_EQ(r.groups[1].allocation.total_latency, conv.conversion_cycles);
  const auto& cols = r.groups[2];
  EXPECT_EQ(layout::tensor_transfer_price(cols.schedule, cols.allocation, acc, "Y_as_1_0", conv.layout).cycles, 592);
  EXPECT_EQ(layout::tensor_transfer_price(r.groups[0].schedule, r.groups[0].allocation, acc, "Y", Layout{}).cycles, 832);
  EXPECT_LT(r.total_latency, r.layout.first_pass_latency);
}

TEST(LayoutChoice, CoresWithoutTransposeConvertOnTheStridedDma) {
  // No compute core accepts Transpose; the bus's DMA walks one stride. K [32, 64] is read twice,
  // 32 boxes [32, 2] each: row-major 32 runs of 2 (32 bits, a burst each) under one descriptor,
  // 10 + 32 x 2 = 74, 2,368 per group, 4,736 in all; (1,0) and (1,0,1:2) make the box one run of
  // 1,024 bits, 10 + 8 = 18, 1,152 in all. On the DMA, into (1,0): 4,682 (an element per run);
  // into (1,0,1:2), walking the target (32 blocks, 32 rows, 2 within): reads of runs of 2 over
  // [32, 32], 1,024 runs under 32 descriptors, 320 + 1,024 x 2 = 2,368, and one written run of
  // 32,768 bits, 10 + 256 = 266: 2,634 (walking K's order instead is the mirror image, a tie the
  // target's walk wins). 1,152 + 2,634 = 3,786 < 4,736.
  auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10, max_strides: 1}");
  for (std::size_t c = 0; c < 4; ++c) acc.cores[c].operator_types = std::vector<std::string>{"MatMul"};
  pipeline::RunSpec o = choose_with({{"scores1", 2, 2}, {"scores2", 2, 2}});
  o.cut_mode = pipeline::CutMode::PerLayer;
  const auto r = pipeline::run(two_scores_reading_k(), acc, o);
  ASSERT_TRUE(r.solved());
  const auto& k = choice(r, "K");
  ASSERT_EQ(k.options.size(), 3u);
  EXPECT_EQ(k.options[0].transfer_cycles, 4736);
  EXPECT_EQ(k.options[1].conversion, layout::Conversion::Dma);
  EXPECT_EQ(k.options[1].total(), 1152 + 4682);
  const auto& dma = k.options[2];
  EXPECT_EQ(dma.from, "reader scores1 blocked");
  EXPECT_EQ(dma.layout.str(2), "(1,0,1:2)");
  EXPECT_EQ(dma.conversion, layout::Conversion::Dma);
  ASSERT_TRUE(dma.dma);
  EXPECT_TRUE(dma.dma->walks_target);
  EXPECT_EQ(dma.dma->read.runs, 1024);
  EXPECT_EQ(dma.dma->read.descriptors, 32);
  EXPECT_EQ(dma.dma->write.runs, 1);
  EXPECT_EQ(dma.total(), 1152 + 2634);
  EXPECT_EQ(k.chosen, 2u);
  // No group converts; the conversion is the run's, before the first group, and in its totals;
  // its energy is the off-chip memory's read and write of K (32,768 / 64 x 1,000 pJ each way).
  ASSERT_EQ(r.layout.dma_conversions.size(), 1u);
  const auto& d = r.layout.dma_conversions[0];
  EXPECT_EQ(d.to, "K_as_1_0_1_b2");
  EXPECT_EQ(d.before_group, 0);
  EXPECT_EQ(d.cost.cycles, 2634);
  EXPECT_DOUBLE_EQ(d.cost.energy, 2 * 512 * 1000.0);
  std::int64_t groups = 0;
  for (const auto& g : r.groups) {
    EXPECT_TRUE(g.converts.empty());
    EXPECT_EQ(layout::tensor_transfer_price(g.schedule, g.allocation, acc, "K_as_1_0_1_b2", dma.layout).cycles, 576);
    groups += g.allocation.total_latency;
  }
  EXPECT_EQ(r.total_latency, groups + 2634);
  EXPECT_LT(r.total_latency, r.layout.first_pass_latency);
  const std::string summary = report::summary_yaml(r, nullptr, nullptr);
  EXPECT_NE(summary.find("layout_conversion_latency: 2634"), std::string::npos) << summary;
  EXPECT_NE(summary.find("- {node: convert_K, tensor: K, to: K_as_1_0_1_b2, layout: \"(1,0,1:2)\", before_group: 0, latency: 2634"),
            std::string::npos)
      << summary;
  const std::string layouts = report::layouts_yaml(r, r.groups[0], acc);
  EXPECT_NE(layouts.find("chosen: reader scores1 blocked (DMA conversion)"), std::string::npos) << layouts;
  EXPECT_NE(layouts.find("{node: convert_K, engine: dma, tensor: K, to: K_as_1_0_1_b2"), std::string::npos) << layouts;
}

TEST(LayoutChoice, WithoutDmaFieldsChooseGivesTodaysFigures) {
  const auto acc = hardware::load_accelerator(kHardware + "/tpu_like_quad_core.yaml");
  pipeline::RunSpec o;
  o.layout = layout::LayoutMode::Choose;
  const auto r = pipeline::run(test::two_conv(), acc, o);
  ASSERT_TRUE(r.solved());
  EXPECT_EQ(r.total_latency, 14344);                // goldens.md, 2-conv on tpu_like_quad_core
  EXPECT_NEAR(r.total_energy, 18911243.392, 1e-3);  // docs/energy.md's worked example
  EXPECT_FALSE(r.layout.choices.empty());
  for (const auto& c : r.layout.choices) {
    EXPECT_EQ(c.chosen, 0u) << c.tensor;
    for (const auto& opt : c.options) EXPECT_EQ(opt.transfer_cycles, c.options[0].transfer_cycles) << c.tensor;
  }
  for (const auto& g : r.groups) EXPECT_TRUE(g.converts.empty());
}

TEST(LayoutChoice, StreamRunLayoutChooseWithoutDmaFieldsMatchesFixed) {
  const auto base = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "layout_choose";
  fs::remove_all(base);
  auto total = [&](const std::string& mode) {
    const auto r = stream::test::run_stream("run --hardware " + kHardware + "/tpu_like_quad_core.yaml --layout " + mode +
                                                " --summary-only --out " + base.string() + " --experiment-id " + mode,
                                            stream::test::Stderr::Discard);
    EXPECT_EQ(r.code, 0) << r.out;
    std::ifstream in(base / mode / "summary.yaml");
    std::stringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    const auto at = text.find("total_latency: ");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_EQ(total("fixed"), "total_latency: 14344");
  EXPECT_EQ(total("choose"), "total_latency: 14344");
  const auto bad = stream::test::run_stream("run --layout best --out " + base.string(), stream::test::Stderr::Merge);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("unknown layout mode 'best'"), std::string::npos) << bad.out;
}
