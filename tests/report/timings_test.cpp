// timings.* under `--layout choose` (report/timings.hpp): every group run of both passes and of
// the conversion pricing is listed with its attempts and MILP solves, and the phases (the layout
// choice's own among them) add up to the run's wall time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include <stream/pipeline/run.hpp>
#include <stream/report/timings.hpp>

#include "dma_hardware.hpp"

using namespace stream;
using nlohmann::json;

namespace {

// Y = rows(X) written in row tiles, Z = cols(Y) read in column tiles, a group each:
// tests/layout/choice_test's AProducerWritingRowsAndAReaderReadingColumnsConvertBetween, where the
// choice prices two conversion groups and schedules three groups again.
Workload rows_then_columns() {
  auto x = make_tensor("X", DType::bf16, {64, 64}), y = make_tensor("Y", DType::bf16, {64, 64});
  auto z = make_tensor("Z", DType::bf16, {64, 64});
  return Workload({make_in_edge("X", x),
                   make_computation("rows", "Relu", {x}, {y}, {AffineMap::identity(2), AffineMap::identity(2)}),
                   make_computation("cols", "Relu", {y}, {z}, {AffineMap::identity(2), AffineMap::identity(2)}),
                   make_out_edge("Z_out", z)});
}

std::size_t solves_of(const json& attempts) {
  std::size_t n = 0;
  for (const auto& a : attempts) {
    EXPECT_TRUE(!a["milp_solves"].empty() || a["reused_allocation"].get<bool>()) << a.dump();
    n += a["milp_solves"].size();
  }
  return n;
}

}  // namespace

TEST(Timings, LayoutChooseListsBothPassesAndTheConversionPricing) {
  const auto acc = test::tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}");
  pipeline::RunSpec o;
  o.layout = layout::LayoutMode::Choose;
  o.cut_mode = pipeline::CutMode::PerLayer;
  o.intra_core_tiling = {{"rows", 0, 2}, {"cols", 1, 8}};
  pipeline::RunTimings clocks;
  const auto r = pipeline::run(rows_then_columns(), acc, o, {.timings = &clocks});
  ASSERT_TRUE(r.solved());
  ASSERT_EQ(r.groups.size(), 3u);  // rows, convert_Y, cols
  const json t = json::parse(report::timings_json(r, clocks));
  // The first pass's two groups, then the two conversions priced: Y into (1,0) and (1,0,1:8)
  // (both transfer 1,424 cycles, under the best single order's 3,664).
  const auto& passes = t.at("layout_passes");
  std::vector<std::pair<std::string, std::string>> runs;
  for (const auto& p : passes) runs.emplace_back(p["pass"], p["name"]);
  EXPECT_EQ(runs, (std::vector<std::pair<std::string, std::string>>{{"first pass", "group_0"},
                                                                    {"first pass", "group_1"},
                                                                    {"conversion pricing", "Y_as_1_0"},
                                                                    {"conversion pricing", "Y_as_1_0_1_b8"}}));
  std::size_t solves = 0;
  for (const auto& p : passes) solves += solves_of(p["attempts"]);
  for (const auto& [key, g] : t["groups"].items()) solves += solves_of(g["attempts"]);
  const auto& phases = t["phases"];
  EXPECT_EQ(phases["milp_solves"].get<std::size_t>(), solves);
  double sum = 0;
  for (const char* k : {"grouping_time_s", "mapping_time_s", "tiling_time_s", "cost_table_time_s", "schedule_time_s",
                        "allocation_time_s", "results_time_s", "layout_choice_time_s"})
    sum += phases[k].get<double>();
  EXPECT_NEAR(phases["accounted_time_s"].get<double>(), sum, 1e-5);
  // Within 5 %, or 25 ms on a short run (a busy machine may deschedule the run between phases).
  const double total = t["total_wall_time_s"].get<double>();
  EXPECT_LE(std::abs(sum - total), std::max(0.05 * total, 0.025)) << "phases " << sum << " s, run " << total << " s";
}

TEST(Timings, LayoutFixedHasNoLayoutPasses) {
  const auto acc = test::tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}");
  pipeline::RunSpec o;
  o.cut_mode = pipeline::CutMode::PerLayer;
  pipeline::RunTimings clocks;
  const auto r = pipeline::run(rows_then_columns(), acc, o, {.timings = &clocks});
  const json t = json::parse(report::timings_json(r, clocks));
  EXPECT_FALSE(t.contains("layout_passes"));
  EXPECT_EQ(t["phases"]["layout_choice_time_s"].get<double>(), 0.0);
}
