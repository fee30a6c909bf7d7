// The cost table's ideal-cycle estimates (cost/estimate_costs.hpp): their energy is the
// traffic model's (cost/traffic_model.hpp), their latency the reference's rule under the default
// profile and at least the traffic model's port cycles under `full`. Figures derived by hand on
// tests/data/hardware/cores/eltwise_small.yaml.
#include <gtest/gtest.h>

#include <filesystem>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/mapping/auto_mapping.hpp>
#include <stream/cost/estimate_costs.hpp>

using namespace stream;

namespace {

hardware::Accelerator eltwise_small() {
  return hardware::load_accelerator(std::filesystem::path(STREAM_TEST_DATA_DIR) / "hardware" / "eltwise_small.yaml");
}

// A Relu over 10 int8 elements: one input on a core with I1 and I2, so the per-core model cannot
// cost it (the reference's KeyError: I2) and the pair is an ideal-cycle estimate.
Workload relu10() {
  auto x = make_tensor("x", DType::i8, {10}), y = make_tensor("y", DType::i8, {10});
  return Workload({make_in_edge("x_in", x),
                   make_computation("Relu", "Relu", {x}, {y}, {AffineMap::identity(1), AffineMap::identity(1)}),
                   make_out_edge("y_out", y)});
}

cost::CostEntry relu_entry(cost::CostEstimateOptions options) {
  const auto acc = eltwise_small();
  const Workload w = relu10();
  const auto costs = cost::estimate_costs(tiling::tile(w, mapping::automatic_mapping(w, acc)), acc, options);
  EXPECT_EQ(costs.at("Relu").size(), 1u);
  return costs.at("Relu").front();
}

cost::CostEstimateOptions with_profile(cost::CostProfile profile, cost::CostCache* cache = nullptr) {
  cost::CostEstimateOptions o;
  o.cache = cache;
  o.profile = profile;
  return o;
}

}  // namespace

TEST(EstimateCosts, AnEstimatesEnergyIsTheTrafficModels) {
  const auto e = relu_entry({});
  ASSERT_TRUE(e.is_fallback()) << e.backend;
  EXPECT_EQ(e.energy_model, "traffic");
  // 10 x 8 = 80 bits per operand. A -> I1: rf_I1 read 5 words (16-bit port) x 0.5 = 2.5, written
  // 5 x 0.75 = 3.75, sram read ceil(80/32) x 32/128 = 0.75 words x 10 = 7.5. O: rf_O written
  // 3 words (32-bit port) x 0.5 = 1.5, read out 3 x 0.25 = 0.75, sram written 0.75 x 12 = 9.
  // Operations 10 x 0.5 = 5. Total 30 pJ.
  EXPECT_DOUBLE_EQ(e.energy_total, 30);
  // The reference's rule: ceil(10 MACs / 4 units) x 1 cycle per op.
  EXPECT_DOUBLE_EQ(e.latency_total, 3);
  EXPECT_DOUBLE_EQ(e.ideal_cycle, 3);
  // rf_O's one port carries 3 + 3 words on its one instance.
  EXPECT_DOUBLE_EQ(e.traffic_cycles, 6);
  EXPECT_FALSE(e.latency_traffic_bound);
}

TEST(EstimateCosts, TheFullProfileBoundsAnEstimatesLatencyByItsTraffic) {
  const auto e = relu_entry(with_profile(cost::CostProfile::Full));
  EXPECT_DOUBLE_EQ(e.latency_total, 6);  // max(3 ideal cycles, 6 port cycles)
  EXPECT_TRUE(e.latency_traffic_bound);
  EXPECT_DOUBLE_EQ(e.ideal_cycle, 3);
  EXPECT_DOUBLE_EQ(e.energy_total, 30);  // the energy does not depend on the profile
}

TEST(EstimateCosts, ACacheFilledUnderOneProfileServesTheOther) {
  cost::CostCache cache;
  EXPECT_DOUBLE_EQ(relu_entry(with_profile(cost::CostProfile::Full, &cache)).latency_total, 6);
  ASSERT_EQ(cache.size(), 1u);
  EXPECT_DOUBLE_EQ(relu_entry(with_profile(cost::CostProfile::Reference, &cache)).latency_total, 3);
  EXPECT_DOUBLE_EQ(relu_entry(with_profile(cost::CostProfile::Full, &cache)).latency_total, 6);
  EXPECT_EQ(cache.size(), 1u);
}
