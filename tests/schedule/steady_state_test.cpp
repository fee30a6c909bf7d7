// Transfers, iteration spaces and time slots of the 2-conv steady state (spec §6.3), with the
// reference's tpu_like_quad_core hardware and hand-given per-core costs.
#include <gtest/gtest.h>

#include <stream/allocate/allocation_milp.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/schedule/steady_state.hpp>
#include <stream/tiling/tiled_group.hpp>

#include "two_conv_fixture.hpp"

using namespace stream;
using namespace stream::schedule;

namespace {

hardware::Accelerator reference_hw(const std::string& file) {
  return hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/" + file);
}

tiling::TiledGroup tiled_two_conv(const std::vector<int>& cores, std::vector<mapping::DimSplit> split) {
  static const Workload wl = test::two_conv();
  mapping::GroupMapping m;
  m.nodes.resize(wl.size());
  for (std::size_t i : wl.computation_nodes()) m.nodes[i] = {cores, split};
  m.intra_core_tiling = {{"Conv1", 0, 1}};
  return tiling::tile(wl, m);
}

cost::CostTable costs(const std::vector<int>& cores, double c1, double c2) {
  cost::CostTable c;
  for (int id : cores) {
    c["Conv1"].push_back({id, "zigzag.compute", c1, 0, 0, 0, 0, "zigzag"});
    c["Conv2"].push_back({id, "zigzag.compute", c2, 0, 0, 0, 0, "zigzag"});
  }
  return c;
}

}  // namespace

TEST(SteadyState, TwoConvTransfersInReferenceOrder) {
  const auto acc = reference_hw("tpu_like_quad_core.yaml");
  const auto ss = add_transfers(tiled_two_conv({0, 1, 2, 3}, {{1, 4}}), acc);
  std::vector<std::string> names;
  for (const auto& n : ss.nodes) names.push_back(n.name);
  const std::vector<std::string> expected{"input", "weights_1", "weights_2", "Conv1", "Conv2", "output_edge",
                                          "Transfer(input)", "Transfer(weights_1)", "Transfer(conv1_out)",
                                          "Transfer(weights_2)", "Transfer(output_1)"};
  EXPECT_EQ(names, expected);
  // Conv2 now writes output_1; the last transfer moves it to the off-chip core (id 6).
  const auto& conv2 = ss.nodes[4];
  EXPECT_EQ(ss.tensors[static_cast<std::size_t>(conv2.outputs.front())].name, "output_1");
  EXPECT_EQ(ss.nodes[10].cores, std::vector<int>{6});
  // Whole steady-state tensor over the bus (128 bits/cycle): input 1*8*32*32*16 / 128 = 1024.
  ASSERT_EQ(ss.nodes[6].plans.size(), 1u);
  EXPECT_EQ(ss.nodes[6].plans[0].latency, 1024);
  EXPECT_EQ(ss.nodes[6].plans[0].links.size(), 1u);  // the bus replaced every link
  EXPECT_EQ(ss.nodes[8].plans[0].latency, 2048);
  EXPECT_EQ(ss.nodes[10].plans[0].latency, 4096);
}

TEST(SteadyState, TwoConvSlotsFollowTheDisjointnessRule) {
  const auto acc = reference_hw("tpu_like_quad_core.yaml");
  const auto ss = steady_state(tiled_two_conv({0, 1, 2, 3}, {{1, 4}}), costs({0, 1, 2, 3}, 2376, 4656), acc);
  auto slot = [&](const std::string& n) { return ss.nodes[static_cast<std::size_t>(ss.node_index(n))].slot; };
  EXPECT_EQ(slot("input"), 0);
  EXPECT_EQ(slot("Transfer(input)"), 1);
  EXPECT_EQ(slot("Transfer(weights_1)"), 2);  // the bus is busy in slot 1
  EXPECT_EQ(slot("Conv1"), 3);
  EXPECT_EQ(slot("Transfer(weights_2)"), 3);  // joins Conv1's slot: compute and transfer may share
  EXPECT_EQ(slot("Transfer(conv1_out)"), 4);
  EXPECT_EQ(slot("Conv2"), 5);
  EXPECT_EQ(slot("Transfer(output_1)"), 6);
  EXPECT_EQ(slot("output_edge"), 7);
  EXPECT_EQ(ss.iterations, 1);
}

TEST(SteadyState, ActiveLatencyRoundsHalfToEven) {
  std::vector<TemporalLoop> loops{{0, 2, LoopEffect::Varying}, {1, 4, LoopEffect::Absent}};
  EXPECT_EQ(active_latency(loops, 10), 2);  // 10 * 2/8 = 2.5 -> 2
  EXPECT_EQ(active_latency(loops, 14), 4);  // 3.5 -> 4
}

TEST(AllocationMilp, TwoConvTpuQuadCoreIs14344) {
  const auto acc = reference_hw("tpu_like_quad_core.yaml");
  const auto ss = steady_state(tiled_two_conv({0, 1, 2, 3}, {{1, 4}}), costs({0, 1, 2, 3}, 2376, 4656), acc);
  const auto solver = allocate::make_solver("cbc");
  const auto a = allocate::solve(ss, acc, *solver);
  ASSERT_EQ(a.status, allocate::SolveStatus::Optimal) << a.infeasibility;
  // 1024 + 144 + max(2376, 576) + 2048 + 4656 + 4096 (spec §6.3).
  EXPECT_EQ(a.total_latency, 14344);
  const std::vector<std::int64_t> slots{0, 1024, 144, 2376, 2048, 4656, 4096, 0};
  EXPECT_EQ(a.slot_latency, slots);
  // Buffering objective: one tile per tensor, ten tensors (the reference's objective 10.0).
  ASSERT_EQ(a.level_objectives.size(), 3u);
  EXPECT_NEAR(a.level_objectives[2], 10.0, 1e-6);
}

TEST(AllocationMilp, TwoConvEyerissSingleCoreIs114999) {
  const auto acc = reference_hw("eyeriss_like_single_core.yaml");
  const auto ss = steady_state(tiled_two_conv({0}, {}), costs({0}, 21048, 83423), acc);
  const auto solver = allocate::make_solver("cbc");
  const auto a = allocate::solve(ss, acc, *solver);
  ASSERT_EQ(a.status, allocate::SolveStatus::Optimal) << a.infeasibility;
  // 2048 + 288 + max(21048, 1152) + 0 (conv1_out stays on core 0) + 83423 + 8192.
  EXPECT_EQ(a.total_latency, 114999);
}
