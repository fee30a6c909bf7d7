// The evaluation of one mapping (cost/evaluation.hpp): the balanced reduction, the stall slack's
// window union, and ZigZag's test_gemm_l1 worked example end to end.
#include <gtest/gtest.h>

#include "stream/cost/evaluation.hpp"
#include "stream/cost/layer.hpp"
#include "stream/cost/memory_allocator.hpp"
#include "stream/cost/spatial_mapping.hpp"
#include "stream/hardware/core_reader.hpp"

namespace {

using namespace stream::cost;

AxisExpr plain(int d) { return AxisExpr{{{d, 1}}, 0}; }

TEST(ReduceBalanced, TakesFromTheLargestFirst) {
  std::vector<int> order;
  std::vector<double> c = {4, 10};
  reduce_balanced(c, {1, 2}, 5, order);  // the largest (10, min 2) absorbs all 5
  EXPECT_EQ(c, (std::vector<double>{4, 5}));
  c = {4, 10};
  reduce_balanced(c, {1, 2}, 0, order);  // no surplus: unchanged
  EXPECT_EQ(c, (std::vector<double>{4, 10}));
  c = {6, 6};
  reduce_balanced(c, {2, 2}, 2, order);  // tie: stable order, the first takes 2
  EXPECT_EQ(c, (std::vector<double>{4, 6}));
}

TEST(StallSlack, WindowUnionMatchesSlotMarking) {
  // Against marking every slot: activities (period, allowed) whose periods divide pmax = 24.
  const std::vector<std::vector<std::pair<double, double>>> sets = {
      {{24, 5}, {8, 3}}, {{24, 0}, {6, 6}}, {{24, 10}, {12, 4}, {4, 1}}, {{24, 23}, {3, 1}, {2, 1}}, {{24, 7}}};
  for (const auto& set : sets) {
    std::vector<PortActivity> acts;
    std::vector<char> mark(24, 0);
    for (auto [p, a] : set) {
      PortActivity x;
      x.period = p;
      x.allowed = a;
      acts.push_back(x);
      for (int t = 0; t < 24; ++t)
        if (t % static_cast<int>(p) < a) mark[static_cast<std::size_t>(t)] = 1;
    }
    double marked = 0;
    for (char c : mark) marked += c;
    EXPECT_EQ(window_union_slots(acts.data(), acts.size(), 0, 24), marked);
  }
}

// ZigZag's test_gemm_l1 (spec section 3.14): fixed spatial mapping D1: D0 8, D2: D2 8, D3: D1 8,
// fixed temporal ordering D1 16, D2 16, D0 16 (innermost first); expected 511349.76 pJ, 8191 cc.
const char* kGemmL1 = R"(
name: gemm_l1
memories:
  reg_O:
    size: 32
    r_cost: 0.02
    w_cost: 0.02
    area: 0
    latency: 1
    operands: [O]
    ports:
      - {name: w_port_1, type: write, bandwidth_min: 32, bandwidth_max: 32, allocation: ["O, fh"]}
      - {name: r_port_1, type: read, bandwidth_min: 32, bandwidth_max: 32, allocation: ["O, tl"]}
      - {name: w_port_2, type: write, bandwidth_min: 32, bandwidth_max: 32, allocation: ["O, fl"]}
      - {name: r_port_2, type: read, bandwidth_min: 32, bandwidth_max: 32, allocation: ["O, th"]}
    served_dimensions: [D2]
  l1:
    size: 4194304
    r_cost: 22.9
    w_cost: 52.01
    area: 0
    latency: 1
    operands: [I1, I2, O]
    ports:
      - {name: rw_port_1, type: read_write, bandwidth_min: 64, bandwidth_max: 512, allocation: ["I1, tl"]}
      - {name: rw_port_2, type: read_write, bandwidth_min: 64, bandwidth_max: 512, allocation: ["I2, tl"]}
      - {name: rw_port_3, type: read_write, bandwidth_min: 64, bandwidth_max: 2048, allocation: ["O, tl", "O, fl"]}
    served_dimensions: [D1, D2, D3]
operational_array:
  unit_energy: 0.04
  unit_area: 1
  dimensions: [D1, D2, D3]
  sizes: [8, 8, 8]
)";

TEST(Evaluation, GemmL1WorkedExample) {
  const CoreModel core = CoreModel::from_core(stream::hardware::parse_core_text(kGemmL1, "gemm_l1.yaml"));
  Tile t;
  t.op_type = "Gemm";
  t.dims = {{"d0", 128}, {"d1", 128}, {"d2", 128}};
  t.operands.push_back({"O", 32, {128, 128}, {plain(0), plain(1)}});
  t.operands.push_back({"A", 8, {128, 128}, {plain(0), plain(2)}});
  t.operands.push_back({"B", 8, {128, 128}, {plain(2), plain(1)}});
  Layer layer = Layer::from_tile(t);
  layer.precision_out_final = 8;  // O = 32-bit partial sums, O_final = 8
  const std::vector<int> links = {kO, kI1, kI2};
  SpatialMapping sm;
  sm.per_oa = {{{0, 8}}, {{2, 8}}, {{1, 8}}};
  std::vector<OperandSpatial> frac, integer;
  for (int op = 0; op < 3; ++op) {
    frac.push_back(convert_spatial_mapping(layer, core, sm, op, links[static_cast<std::size_t>(op)], false));
    integer.push_back(convert_spatial_mapping(layer, core, sm, op, links[static_cast<std::size_t>(op)], true));
  }
  const std::vector<TemporalLoop> ordering = {{1, 16}, {2, 16}, {0, 16}};
  MemoryAllocator alloc(layer, core, links, frac);
  Allocation a;
  ASSERT_TRUE(alloc.allocate(ordering, a));
  // reg_O holds one 32-bit element: every temporal loop lands in l1.
  EXPECT_EQ(std::vector<int>(a.bounds[0].begin(), a.bounds[0].end()), (std::vector<int>{0, 0, 3}));
  Evaluator ev(layer, core, links, frac, integer, 1);
  MappingCost cost;
  ev.evaluate(ordering, a, cost, true);
  EXPECT_EQ(cost.accesses[1][0][kTL], 256);     // I at l1
  EXPECT_EQ(cost.accesses[2][0][kTL], 4096);    // W at l1
  for (int d = 0; d < kNumDirs; ++d) EXPECT_EQ(cost.accesses[0][0][static_cast<std::size_t>(d)], 262144) << d;
  EXPECT_EQ(cost.accesses[0][1][kTL], 4096);
  EXPECT_EQ(cost.accesses[0][1][kFL], 4096);
  EXPECT_NEAR(cost.mac_energy, 83886.08, 1e-6);
  EXPECT_NEAR(cost.energy_total, 511349.76, 511349.76 * 1e-12);
  EXPECT_EQ(cost.ideal_temporal_cycle, 4096);
  EXPECT_EQ(cost.stall_slack_comb, 4094);
  EXPECT_EQ(cost.onloading, 0);
  EXPECT_EQ(cost.offloading, 1);
  EXPECT_EQ(cost.latency_total2, 8191);
}

}  // namespace
