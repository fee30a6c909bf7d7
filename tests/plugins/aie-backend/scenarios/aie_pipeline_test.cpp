// The AIE backend inside cost::estimate_costs on the reference's AIE hardware files: the backend
// selection against it (the rule alone: tests/cost/cost_backend_test.cpp), the 2-conv figures of
// aie-and-defaults §1.4 through the real tiling, the kernel utilisation reaching the backend, and
// an unmodelled type as a clear error.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/cost/estimate_costs.hpp>
#include <stream/tiling/tiled_group.hpp>

#include "../../../schedule/two_conv_fixture.hpp"
#include "aie_backend.hpp"
#include "fixed_cost_backend.hpp"

using namespace stream;

namespace {

hardware::Accelerator aie_hw(const std::string& file) {
  return hardware::load_accelerator(std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/aie/hardware/" + file);
}

// Both convs on `cores`, D1 (ox) split `split` ways when > 1, one steady-state iteration (Conv1.D0 tile 1).
tiling::TiledGroup two_conv_on(const Workload& wl, std::vector<int> cores, std::int64_t split,
                               std::optional<double> kernel = {}) {
  mapping::GroupMapping m;
  m.nodes.resize(wl.size());
  for (const char* n : {"Conv1", "Conv2"}) {
    auto& nm = m.nodes[wl.index_of(n)];
    nm.cores = cores;
    if (split > 1) nm.inter_core_tiling = {{1, split}};
    nm.kernel_utilization = kernel;
  }
  m.intra_core_tiling = {{"Conv1", 0, 1}};
  return tiling::tile(wl, m);
}

cost::CostEstimateOptions with_aie() { return {1, 6, {aie::aie_backend()}}; }

// A vendor backend claiming every compute core at `latency` cycles.
CostBackend fixed(const std::string& name, std::int64_t priority, double latency) {
  return test::fixed_cost_backend(name, priority, latency,
                                  [](const hardware::Core& c) { return c.type.kind == hardware::CoreKind::Compute; });
}

}  // namespace

TEST(AieEstimateCosts, TwoConvOnOneAieTile) {
  // single_core: core 2 is the only aie_tile. Conv1 1,179,648 macs / 32 = 36,864; Conv2
  // 4,718,592 / 32 = 147,456 (§1.4).
  const auto acc = aie_hw("single_core.yaml");
  const Workload wl = test::two_conv();
  const auto costs = cost::estimate_costs(two_conv_on(wl, {2}, 1), acc, with_aie());
  ASSERT_EQ(costs.at("Conv1").size(), 1u);
  const auto& c1 = costs.at("Conv1")[0];
  EXPECT_EQ(c1.core_id, 2);
  EXPECT_EQ(c1.core_type, "aie2.compute");
  EXPECT_EQ(c1.backend, "aie");
  EXPECT_EQ(c1.latency_total, 36864);
  EXPECT_EQ(c1.ideal_cycle, 36864);
  EXPECT_EQ(costs.at("Conv2")[0].latency_total, 147456);
}

TEST(AieEstimateCosts, TwoConvSplitFourOverTiles2To5) {
  // single_col: aie tiles 2..5, D1 split 4: 294,912 macs -> 9,216; Conv2 1,179,648 -> 36,864.
  const auto acc = aie_hw("single_col.yaml");
  const Workload wl = test::two_conv();
  const auto costs = cost::estimate_costs(two_conv_on(wl, {2, 3, 4, 5}, 4), acc, with_aie());
  ASSERT_EQ(costs.at("Conv1").size(), 4u);
  for (const auto& e : costs.at("Conv1")) EXPECT_EQ(e.latency_total, 9216) << e.core_id;
  for (const auto& e : costs.at("Conv2")) EXPECT_EQ(e.latency_total, 36864) << e.core_id;
}

TEST(AieEstimateCosts, KernelUtilisationOfTheMappingReachesTheBackend) {
  // Conv1 split 4 at 50 %: 294,912 / 16 = 18,432; the ideal stays 9,216.
  const auto acc = aie_hw("single_col.yaml");
  const Workload wl = test::two_conv();
  const auto costs = cost::estimate_costs(two_conv_on(wl, {2, 3, 4, 5}, 4, 50.0), acc, with_aie());
  EXPECT_EQ(costs.at("Conv1")[0].latency_total, 18432);
  EXPECT_EQ(costs.at("Conv1")[0].ideal_cycle, 9216);
  EXPECT_EQ(*costs.at("Conv1")[0].utilization, 50.0);
}

TEST(AieEstimateCosts, WithoutBackendsAieTilesKeepTheIdealCycleFallback) {
  // The built-in model has no aie2 model: 1 unit, ceil(294,912 / 1) cycles, backend ideal-cycle.
  const auto acc = aie_hw("single_col.yaml");
  const Workload wl = test::two_conv();
  const auto costs = cost::estimate_costs(two_conv_on(wl, {2, 3, 4, 5}, 4), acc);
  EXPECT_EQ(costs.at("Conv1")[0].backend, "ideal-cycle");
  EXPECT_TRUE(costs.at("Conv1")[0].is_fallback());
  EXPECT_EQ(costs.at("Conv1")[0].latency_total, 294912);
}

TEST(AieEstimateCosts, UnmodelledElementTypeIsAStreamErrorNamingTheNode) {
  // The 2-conv fixture in i8.
  auto t = [](const std::string& n, std::vector<std::int64_t> s) { return make_tensor(n, DType::i8, std::move(s)); };
  auto input = t("input", {1, 8, 32, 32}), w1 = t("weights_1", {16, 8, 3, 3}), w2 = t("weights_2", {32, 16, 3, 3});
  auto mid = t("conv1_out", {1, 16, 32, 32}), out = t("output", {1, 32, 32, 32});
  const Workload wl({make_in_edge("input", input), make_in_edge("weights_1", w1), make_in_edge("weights_2", w2),
                     test::conv("Conv1", input, w1, mid), test::conv("Conv2", mid, w2, out),
                     make_out_edge("output_edge", out)});
  const auto acc = aie_hw("single_core.yaml");
  try {
    (void)cost::estimate_costs(two_conv_on(wl, {2}, 1), acc, {2, 6, {aie::aie_backend()}});
    FAIL() << "expected a stream::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'Conv1'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("i8 -> i8"), std::string::npos) << e.what();
  }
}

TEST(CostBackendSelection, AHigherPriorityPluginBackendOverridesTheAieBackend) {
  const auto acc = aie_hw("single_core.yaml");
  const Workload wl = test::two_conv();
  const auto costs =
      cost::estimate_costs(two_conv_on(wl, {2}, 1), acc, {1, 6, {aie::aie_backend(), fixed("vendor", 11, 77)}});
  EXPECT_EQ(costs.at("Conv1")[0].backend, "vendor");
  EXPECT_EQ(costs.at("Conv1")[0].latency_total, 77);
}

TEST(CostBackendSelection, ABackendClaimingOneOfIdenticalTilesCostsOnlyThatTile) {
  // single_col: tiles 2..5 share one core file, so tile 2 stands in for all four in the cost
  // table. A backend that claims tile 3 alone (a vendor claims by what that equivalence ignores,
  // a name or an id) must cost tile 3, and the AIE backend the other three (9,216, as above).
  const auto acc = aie_hw("single_col.yaml");
  const Workload wl = test::two_conv();
  CostBackend only3 = fixed("only-3", 20, 77);
  only3.claims = [](const hardware::Core& c) { return c.id == 3; };
  const auto costs = cost::estimate_costs(two_conv_on(wl, {2, 3, 4, 5}, 4), acc, {1, 6, {aie::aie_backend(), only3}});
  ASSERT_EQ(costs.at("Conv1").size(), 4u);
  for (const auto& e : costs.at("Conv1")) {
    EXPECT_EQ(e.backend, e.core_id == 3 ? "only-3" : "aie") << e.core_id;
    EXPECT_EQ(e.latency_total, e.core_id == 3 ? 77 : 9216) << e.core_id;
  }
}
