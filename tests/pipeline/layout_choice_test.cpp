// `--layout choose` (pipeline/layout_choice.hpp) with figures derived by hand. The hardware is
// tpu_like_quad_core whose off-chip bus (128 bits/cycle) has dma {burst_bits 256, setup_cycles 10}
// (no strides: a descriptor per run), bf16 tensors; a box of R runs of b bits costs
// R x 10 + ceil(R x ceil(b / 256) x 256 / 128) cycles (docs/layout.md, "Pricing a transfer").
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/layout_candidates.hpp>
#include <stream/pipeline/layout_prices.hpp>
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

pipeline::RunOptions choose_with(std::vector<mapping::TileEntry> tiling) {
  pipeline::RunOptions o;
  o.layout = pipeline::LayoutMode::Choose;
  o.intra_core_tiling = std::move(tiling);
  return o;
}

const pipeline::LayoutChoice& choice(const pipeline::RunResult& r, const std::string& tensor) {
  const auto it = std::find_if(r.layout_choices.begin(), r.layout_choices.end(), [&](const auto& c) { return c.tensor == tensor; });
  if (it == r.layout_choices.end()) throw std::runtime_error("no choice for " + tensor);
  return *it;
}

const pipeline::GroupResult& conversion_of(const pipeline::RunResult& r, const std::string& tensor) {
  const auto it = std::find_if(r.groups.begin(), r.groups.end(), [&](const auto& g) { return g.converts == tensor; });
  if (it == r.groups.end()) throw std::runtime_error("no conversion group for " + tensor);
  return *it;
}

}  // namespace

TEST(LayoutChoice, TheModelWinsTiesThenTheFirstOption) {
  std::vector<pipeline::LayoutOption> o(3);
  o[0].transfer_cycles = 10;
  o[1].transfer_cycles = 4, o[1].conversion_cycles = 6;  // 10: a tie, the model stays
  o[2].transfer_cycles = 10;
  EXPECT_EQ(pipeline::cheapest_option(o), 0u);
  o[2].transfer_cycles = 9;
  o.push_back(o[2]);
  EXPECT_EQ(pipeline::cheapest_option(o), 2u);
}

TEST(LayoutChoice, AModeOtherThanFixedOrChooseIsABadInput) {
  EXPECT_EQ(pipeline::parse_layout_mode("choose", "--layout"), pipeline::LayoutMode::Choose);
  try {
    (void)pipeline::parse_layout_mode("best", "--layout");
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
    return std::make_pair(pipeline::walk_layout(w, tiled, 2, q).str(2), pipeline::walk_layout(w, tiled, 2, k).str(2));
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
  ASSERT_EQ(k.options.size(), 2u);
  EXPECT_EQ(k.options[0].from, "model");
  EXPECT_EQ(k.options[0].transfer_cycles, 3072);
  EXPECT_EQ(k.options[1].from, "reader scores");
  EXPECT_EQ(k.options[1].layout.str(2), "(1,0)");
  EXPECT_EQ(k.options[1].transfer_cycles, 336);
  EXPECT_TRUE(k.options[1].conversion);
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
  ASSERT_EQ(q.options.size(), 2u);
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
  EXPECT_EQ(pipeline::tensor_transfer_cycles(scores.schedule, scores.allocation, acc, "K_as_1_0", col), 336);
  EXPECT_EQ(pipeline::tensor_transfer_cycles(scores.schedule, scores.allocation, acc, "Q_as_1_0", col), 208);
  EXPECT_EQ(conv_k.costs.count("convert_K"), 1u);
  EXPECT_EQ(r.total_latency, conv_k.allocation.total_latency + conversion_of(r, "Q").allocation.total_latency +
                                 scores.allocation.total_latency);
  // The first pass is the fixed run; the choice pays off end to end.
  pipeline::RunOptions fixed = choose_with({{"scores", 2, 8}});
  fixed.layout = pipeline::LayoutMode::Fixed;
  EXPECT_EQ(r.first_pass_latency, pipeline::run(attention_scores(), acc, fixed).total_latency);
  EXPECT_LT(r.total_latency, r.first_pass_latency);
  // layouts.yaml of the scores group: the choice and the conversions it reads.
  const std::string layouts = report::layouts_yaml(r, scores, acc);
  EXPECT_NE(layouts.find("chosen: reader scores (conversion)"), std::string::npos) << layouts;
  EXPECT_NE(layouts.find("converted_from: K"), std::string::npos) << layouts;
  EXPECT_NE(layouts.find("node: convert_K, group: "), std::string::npos) << layouts;
  // The summary's conversion share.
  const std::string summary = report::summary_yaml(r, false, nullptr);
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
  ASSERT_EQ(k.options.size(), 2u);
  EXPECT_EQ(k.options[0].transfer_cycles, 592);
  EXPECT_EQ(k.options[1].transfer_cycles, 336);
  EXPECT_GE(k.options[1].conversion_cycles, 532);
  EXPECT_EQ(k.chosen, 0u);
  const auto& q = choice(r, "Q");
  EXPECT_EQ(q.options.at(0).transfer_cycles, 336);
  EXPECT_EQ(q.options.at(1).transfer_cycles, 208);
  EXPECT_EQ(q.chosen, 0u);
  ASSERT_EQ(r.groups.size(), 1u);
  pipeline::RunOptions fixed = choose_with({{"scores", 2, 8}});
  fixed.layout = pipeline::LayoutMode::Fixed;
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
  ASSERT_EQ(w.options.size(), 2u);
  EXPECT_EQ(w.options[0].transfer_cycles, 4 * 192);
  EXPECT_EQ(w.options[1].from, "reader conv");
  EXPECT_EQ(w.options[1].transfer_cycles, 4 * 26);
  EXPECT_GE(w.options[1].conversion_cycles, 2 * 74);
  EXPECT_EQ(w.chosen, w.options[1].conversion_cycles < 768 - 104 ? 1u : 0u);
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

TEST(LayoutChoice, WithoutDmaFieldsChooseGivesTodaysFigures) {
  const auto acc = hardware::load_accelerator(kHardware + "/tpu_like_quad_core.yaml");
  pipeline::RunOptions o;
  o.layout = pipeline::LayoutMode::Choose;
  const auto r = pipeline::run(test::two_conv(), acc, o);
  ASSERT_TRUE(r.solved());
  EXPECT_EQ(r.total_latency, 14344);                // goldens.md, 2-conv on tpu_like_quad_core
  EXPECT_NEAR(r.total_energy, 18911243.392, 1e-3);  // docs/energy.md's worked example
  EXPECT_FALSE(r.layout_choices.empty());
  for (const auto& c : r.layout_choices) {
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
