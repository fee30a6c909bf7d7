// Transfers priced by a DMA model (schedule/transfer_cost.hpp), figures derived by hand from the
// runs of the moved box: a bus with {burst_bits 256, setup_cycles 10} on tpu_like_quad_core.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/schedule/steady_state.hpp>
#include <stream/schedule/transfer_cost.hpp>
#include <stream/tiling/tiled_group.hpp>

#include "dma_hardware.hpp"
#include "relu_group.hpp"
#include "two_conv_fixture.hpp"

using namespace stream;
using namespace stream::schedule;

using stream::test::tpu_with_bus_dma;

namespace {


// The Relu group of relu_group.hpp, 8 columns per iteration, X laid out as `layout`.
SteadyState relu_columns(const hardware::Accelerator& acc, const Layout& layout) {
  return test::relu_with_transfers(acc, 8, layout);
}

const TransferPlan& plan_of(const SteadyState& ss, const std::string& transfer) {
  const int i = ss.node_index(transfer);
  EXPECT_GE(i, 0) << transfer;
  return ss.nodes.at(static_cast<std::size_t>(i)).plans.at(0);
}

}  // namespace

TEST(TransferCost, LinkCostCountsSetupsAndBursts) {
  hardware::CommunicationLink link;
  link.bandwidth = 64;
  // NHWC channels 0..3 of [1, 8, 4, 4] bf16: 16 runs of 4 elements (64 bits), 1024 bits.
  const auto runs = count_runs(Layout{{0, 2, 3, 1}, std::nullopt}, {1, 8, 4, 4}, {1, 4, 4, 4});
  const auto plain = link_cost(link, nullptr, 1024, runs, 16);
  EXPECT_EQ(plain.cycles, 16);  // 1024 / 64
  EXPECT_EQ(plain.words, 16);
  EXPECT_EQ(plain.descriptors, 0);
  hardware::DmaModel dma;
  dma.burst_bits = 256;
  dma.setup_cycles = 10;
  dma.setup_energy = 2;
  // 16 descriptors; each run pads to one 256-bit burst: 4096 bits = 64 words; 160 + 64 cycles.
  const auto per_run = link_cost(link, &dma, 1024, runs, 16);
  EXPECT_EQ(per_run.descriptors, 16);
  EXPECT_EQ(per_run.words, 64);
  EXPECT_EQ(per_run.cycles, 224);
  EXPECT_DOUBLE_EQ(per_run.setup_energy, 32);
  // Two strides: one descriptor walks W and H; the bursts stay per run: 10 + 64.
  dma.max_strides = 2;
  EXPECT_EQ(link_cost(link, &dma, 1024, runs, 16).cycles, 74);
  dma.max_strides = 1;  // one per row of W: 4 x 10 + 64
  EXPECT_EQ(link_cost(link, &dma, 1024, runs, 16).cycles, 104);
}

TEST(TransferCost, NoDmaModelLeavesEveryPlanAsRoutingPricedIt) {
  const auto acc = tpu_with_bus_dma("");
  const auto ss = relu_columns(acc, Layout{});
  std::size_t transfers = 0;
  for (const auto& n : ss.nodes)
    for (const auto& p : n.plans) {
      EXPECT_TRUE(p.link_costs.empty()) << n.name;
      const double bits = static_cast<double>(ss.tensors[static_cast<std::size_t>(n.inputs.front())].bits);
      EXPECT_EQ(p.latency, static_cast<std::int64_t>(std::ceil(bits / p.min_bandwidth))) << n.name;
      ++transfers;
    }
  EXPECT_EQ(transfers, 2u);
  // The box of X: 16 x 8 bf16 = 2048 bits over the 128-bit bus.
  EXPECT_EQ(plan_of(ss, "Transfer(X)").latency, 16);
}

TEST(TransferCost, ARowMajorColumnTileIsOneRunPerRow) {
  const auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}");
  // X row-major: the 16 x 8 box is 16 runs of 8 bf16 (128 bits), each one 256-bit burst:
  // 16 x 10 setup + 16 x 256 / 128 words = 160 + 32.
  const auto ss = relu_columns(acc, Layout{});
  const auto& x = plan_of(ss, "Transfer(X)");
  ASSERT_EQ(x.link_costs.size(), 1u);
  EXPECT_EQ(x.link_costs[0].runs, 16);
  EXPECT_EQ(x.link_costs[0].descriptors, 16);
  EXPECT_EQ(x.link_costs[0].words, 32);
  EXPECT_EQ(x.latency, 192);
  // Y is written back to off-chip the same way (row-major, 16 runs).
  EXPECT_EQ(plan_of(ss, "Transfer(Y_1)").latency, 192);
}

TEST(TransferCost, AColumnMajorColumnTileIsOneRun) {
  const auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}");
  // X column-major: the 8 columns are 128 consecutive elements, 2048 bits = 8 bursts:
  // 10 setup + 2048 / 128 words = 26.
  const auto ss = relu_columns(acc, Layout{{1, 0}, std::nullopt});
  const auto& x = plan_of(ss, "Transfer(X)");
  ASSERT_EQ(x.link_costs.size(), 1u);
  EXPECT_EQ(x.link_costs[0].runs, 1);
  EXPECT_EQ(x.latency, 26);
  // A strided DMA (one descriptor over the rows) brings the row-major box to 10 + 32.
  const auto strided = relu_columns(tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10, max_strides: 1}"), Layout{});
  EXPECT_EQ(plan_of(strided, "Transfer(X)").latency, 42);
}

TEST(TransferCost, OnChipTransfersMoveACompactTile) {
  // 2-conv on the four tpu cores with the DMA bus: conv1_out goes core to core (no off-chip
  // end), one run of 1 x 16 x 32 x 32 bf16 = 262144 bits = 1024 bursts of 256: 10 + 2048.
  const auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}");
  static const Workload wl = test::two_conv();
  mapping::GroupMapping m;
  m.nodes.resize(wl.size());
  for (std::size_t i : wl.computation_nodes()) m.nodes[i] = {{0, 1, 2, 3}, {{1, 4}}};
  m.intra_core_tiling = {{"Conv1", 0, 1}};
  const auto ss = add_transfers(tiling::tile(wl, m), acc);
  EXPECT_EQ(plan_of(ss, "Transfer(conv1_out)").latency, 2058);
  // The whole input from off-chip is one run too: 131072 bits, 10 + 1024.
  EXPECT_EQ(plan_of(ss, "Transfer(input)").latency, 1034);
}
