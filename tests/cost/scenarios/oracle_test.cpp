// Every shared oracle case (ZigZag 3.8.5 as Stream drives it) must be reproduced: same status,
// latency and ideal cycles equal, energy within 1e-9 relative.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "stream/cost/case_file.hpp"
#include "stream/cost/cost_model.hpp"
#include "stream/hardware/core_reader.hpp"

namespace {

namespace fs = std::filesystem;
using namespace stream::cost;

const fs::path kOracle = fs::path(STREAM_TEST_DATA_DIR) / "reference/oracle/cost-model-cases.json";
const fs::path kCores = fs::path(STREAM_TEST_DATA_DIR) / "reference/stream-inputs/hardware/cores";

const std::vector<CostCase>& cases() {
  static const std::vector<CostCase> all = fs::exists(kOracle) ? read_cost_cases(kOracle) : std::vector<CostCase>{};
  return all;
}

const CoreModel& core(const std::string& name) {
  static std::map<std::string, CoreModel> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, CoreModel::from_core(stream::hardware::load_core_file(kCores / name))).first;
  return it->second;
}

class OracleCase : public ::testing::TestWithParam<std::size_t> {};

TEST_P(OracleCase, AgreesWithReference) {
  const CostCase& c = cases()[GetParam()];
  const CoreCost got = estimate(c.tile, core(c.core));
  EXPECT_EQ(disagreement(got, c.expected), "") << c.id;
  if (got.status == CostStatus::Ok) {
    EXPECT_NEAR(got.mac_spatial_utilization, c.expected.mac_spatial_utilization, 1e-12) << c.id;
  }
}

std::vector<std::size_t> indices() {
  std::vector<std::size_t> v;
  for (std::size_t i = 0; i < cases().size(); ++i) v.push_back(i);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Shared, OracleCase, ::testing::ValuesIn(indices()),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           std::string id = cases()[info.param].id;
                           for (char& ch : id)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return id;
                         });

TEST(OracleFile, HasTheSharedCases) {
  ASSERT_TRUE(fs::exists(kOracle)) << kOracle;
  EXPECT_EQ(cases().size(), 123u);
}

TEST(OracleSearch, TimeBudgetCutsAndReports) {
  // The largest conv case: with a budget far below its run time the search stops early, says so,
  // and still returns the best mapping found so far (or the fallback when none fitted yet).
  for (const CostCase& c : cases()) {
    if (c.id != "conv2d-simba-c32k64i16f5s1p2-bf16") continue;
    CostOptions opt;
    opt.time_budget_s = 1e-9;
    const CoreCost got = estimate(c.tile, core(c.core), opt);
    EXPECT_TRUE(got.search_cut);
    EXPECT_LT(got.orderings_visited, got.orderings_total);
    const CoreCost full = estimate(c.tile, core(c.core));
    EXPECT_FALSE(full.search_cut);
    EXPECT_EQ(full.orderings_visited, full.orderings_total);
    if (got.status == CostStatus::Ok) {
      EXPECT_GE(got.latency_total, full.latency_total);
    }
    return;
  }
  FAIL() << "case not found";
}

}  // namespace
