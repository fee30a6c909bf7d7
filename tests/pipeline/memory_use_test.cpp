// Memory use (pipeline/memory_use.hpp) on the reference's bf16 2-conv (8 -> 16 -> 32 channels,
// 32x32, 3x3, pad 1), every figure derived by hand from the tensors' shapes.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/memory_use.hpp>
#include <stream/pipeline/metrics.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/report/summary.hpp>

#include "../schedule/two_conv_fixture.hpp"

using namespace stream;

namespace {

hardware::Accelerator hw(const std::string& file) {
  return hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/" + file);
}

const pipeline::LevelMemoryUse& level(const pipeline::CoreMemoryUse& u, const std::string& memory) {
  for (const auto& l : u.levels)
    if (l.memory == memory) return l;
  throw std::runtime_error("no level " + memory);
}

int slot_of(const pipeline::GroupResult& g, const std::string& node) {
  return g.schedule.nodes.at(static_cast<std::size_t>(g.schedule.node_index(node))).slot;
}

// bf16 sizes: conv1_out 16x32x32 x16 = 262,144 bits; weights_2 32x16x3x3 x16 = 73,728;
// output 32x32x32 x16 = 524,288.
constexpr double kConv1Out = 262144, kWeights2 = 73728, kOutput = 524288;

}  // namespace

TEST(MemoryUse, SingleCorePeaksWhileConv2HoldsItsInputWeightsAndOutput) {
  const auto acc = hw("eyeriss_like_single_core.yaml");
  const auto r = pipeline::run(test::two_conv(), acc);
  ASSERT_TRUE(r.solved());
  const auto use = pipeline::memory_use(r, acc);
  ASSERT_EQ(use.size(), 2u);  // the compute core and the off-chip core (the output's store)
  const auto& core = use[0];
  EXPECT_EQ(core.core, 0);
  EXPECT_EQ(core.capacity_bits, 8388608);  // sram_1M, the top I1 memory
  // Conv2's slot: its input, weights and output are live on the core, and nothing of Conv1's.
  EXPECT_DOUBLE_EQ(core.peak_bits, kConv1Out + kWeights2 + kOutput);
  EXPECT_EQ(core.peak_slot, slot_of(r.groups[0], "Conv2"));
  EXPECT_EQ(core.peak_group, 0);
  EXPECT_NEAR(core.share(), 860160.0 / 8388608.0, 1e-12);
  // The allocation reserves every tensor placed on the core, live or not: input 8x32x32 x16 =
  // 131,072, weights_1 16x8x3x3 x16 = 18,432, conv1_out twice (as Conv1 writes it and as the
  // transfer to Conv2 copies it), weights_2 and the output.
  EXPECT_DOUBLE_EQ(core.reserved_bits, 131072 + 18432 + 2 * kConv1Out + kWeights2 + kOutput);
  EXPECT_LE(core.reserved_bits, static_cast<double>(core.capacity_bits));
  // The per-core model's levels: sram_1M holds Conv2's whole input and output (I1 and O),
  // sram_64KB its whole weights (I2's top).
  EXPECT_DOUBLE_EQ(level(core, "sram_1M").peak_bits, kConv1Out + kOutput);
  EXPECT_EQ(level(core, "sram_1M").node, "Conv2");
  EXPECT_DOUBLE_EQ(level(core, "sram_64KB").peak_bits, kWeights2);
  EXPECT_EQ(level(core, "sram_64KB").capacity_bits, 524288);
  for (const auto& l : core.levels) EXPECT_LE(l.peak_bits, static_cast<double>(l.capacity_bits)) << l.memory;
  // Off chip: the output, from its store to the end of the iteration; it runs no node.
  EXPECT_EQ(use[1].core, 3);
  EXPECT_DOUBLE_EQ(use[1].peak_bits, kOutput);
  EXPECT_TRUE(use[1].levels.empty());
  EXPECT_EQ(pipeline::fullest_core(use), &use[0]);
}

TEST(MemoryUse, QuadCoreLevelsHoldEachCoresQuarterOfConv2) {
  const auto acc = hw("tpu_like_quad_core.yaml");
  const auto r = pipeline::run(test::two_conv(), acc);
  ASSERT_TRUE(r.solved());
  const auto use = pipeline::memory_use(r, acc);
  // The automatic mapping splits OX over cores 0-3: Conv2's tile on each is its output's quarter
  // (32 x 32 x 8 x16 = 131,072 bits), its input's 8 + 2 halo columns (16 x 32 x 10 x16 = 81,920)
  // and all the weights (73,728), together in sram_2MB (A, B and O).
  for (int c = 0; c < 4; ++c) {
    const auto& u = use.at(static_cast<std::size_t>(c));
    ASSERT_EQ(u.core, c);
    EXPECT_DOUBLE_EQ(level(u, "sram_2MB").peak_bits, 131072 + 81920 + 73728) << c;
    EXPECT_EQ(level(u, "sram_2MB").node, "Conv2");
    EXPECT_DOUBLE_EQ(level(u, "rf_2B").peak_bits, 16);  // one bf16 partial sum per register
    // The schedule's slot of Conv2: the transferred conv1_out tile (16 x 32 x 9 columns x16 =
    // 73,728: the schedule's tile is its 8 columns and one of halo), weights_2 and the output's
    // quarter; Conv1's own output has gone with its transfer's slot.
    EXPECT_DOUBLE_EQ(u.peak_bits, 73728 + kWeights2 + 131072) << c;
    EXPECT_EQ(u.peak_slot, slot_of(r.groups[0], "Conv2"));
    EXPECT_LE(u.peak_bits, u.reserved_bits);
    EXPECT_LE(u.reserved_bits, static_cast<double>(u.capacity_bits));
  }
}

TEST(MemoryUse, SummaryCarriesEveryCoreWithShortShares) {
  const auto acc = hw("eyeriss_like_single_core.yaml");
  const auto r = pipeline::run(test::two_conv(), acc);
  const auto m = pipeline::run_metrics(r, acc);
  const auto yaml = report::summary_yaml(r, nullptr, &m);
  // 860,160 / 8,388,608 = 10.2539...%: two decimals, written as such (not 10.25000000000000001).
  EXPECT_NE(yaml.find("memory:\n  - core: 0\n    name: eyeriss_like\n    capacity_bits: 8388608\n    peak_bits: 860160\n"
                      "    peak_share: 10.25\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("{memory: sram_1M, capacity_bits: 8388608, peak_bits: 786432, peak_share: 9.38, node: Conv2}"),
            std::string::npos)
      << yaml;
  const auto json = nlohmann::json::parse(report::summary_json(r, nullptr, &m));
  EXPECT_EQ(json["memory"][0]["peak_bits"], 860160.0);
  EXPECT_EQ(json["memory"][0]["peak_slot"], slot_of(r.groups[0], "Conv2"));
  EXPECT_FALSE(json["memory"][1].contains("levels"));
}
