// The hardware cost model against the reference's worked figures (dse-area-dedup-mcp.md §1.7,
// each also derived by hand there from the constants of §1.2: 0.16 / 0.18 pJ per bit read /
// written, 0.10 µm² per SRAM bit, 200 µm² and 0.5 pJ per MAC, 4 pJ per off-die bit).
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/hardware/hardware_cost.hpp>

#include "stream_cli.hpp"

namespace fs = std::filesystem;
using namespace stream::hardware;

namespace {

const fs::path kInputs = fs::path(STREAM_INPUTS_DIR) / "hardware";
const fs::path kReference = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs";

HardwareCostReport cost_of(const fs::path& file, std::optional<std::string> node = std::nullopt) {
  return hardware_cost(load_accelerator(file), node);
}

void expect_rel(double actual, double expected) { EXPECT_NEAR(actual, expected, 1e-9 * std::max(1.0, expected)); }

const MemoryCost& memory(const HardwareCostReport& r, int core, const std::string& name) {
  for (const auto& m : r.cores.at(static_cast<std::size_t>(core)).memories)
    if (m.memory_name == name) return m;
  throw std::runtime_error("no memory " + name);
}

}  // namespace

TEST(HardwareCost, TpuLikeQuadCoreAsTheReferenceWorksItOut) {
  const auto r = cost_of(kInputs / "tpu_like_quad_core.yaml");
  // rf_128B stores I2 for each of the 32 x 32 PEs (served []): 1024 instances of 1024 bits, two
  // ports of 8 bits: 1024 x 1024 x 0.1 / 1e6 = 0.1048576 mm², 1024 x 2 x 8 x 0.16 = 2621.44 pJ/cycle.
  const auto& rf = memory(r, 0, "rf_128B");
  EXPECT_EQ(rf.instances, 1024);
  EXPECT_EQ(rf.nb_ports, 2);
  expect_rel(rf.area_mm2, 0.1048576);
  expect_rel(rf.read_energy_pj, 1.28);
  const auto& rf2 = memory(r, 0, "rf_2B");  // served [D2]: 32 instances, 4 ports of 16 bits
  EXPECT_EQ(rf2.instances, 32);
  EXPECT_EQ(rf2.nb_ports, 4);
  expect_rel(rf2.area_mm2, 0.0000512);
  expect_rel(r.cores[0].area_mm2, 1.9874304);
  expect_rel(r.total_area_mm2, 8.1866368);
  expect_rel(r.memory_area_mm2, 7.3402368);
  expect_rel(r.compute_area_mm2, 0.8464);
  EXPECT_EQ(r.on_die_memory_bits, 73'402'368);
  EXPECT_EQ(r.off_die_memory_bits, 10'000'000'000);
  expect_rel(r.peak_access_energy_pj_per_cycle, 16'882.08);
  expect_rel(r.off_die_access_energy_pj_per_cycle, 256.0);  // one 64-bit port x 4 pJ/bit
  EXPECT_FALSE(r.cores[6].compute.has_value()) << "off die: no compute entry";
  EXPECT_FALSE(r.technology_declared);
  EXPECT_EQ(r.warnings, std::vector<std::string>{"bundle declares no `technology_node`; priced at n16"});
  EXPECT_EQ(r.compute_modelled, std::optional<bool>(true));
}

TEST(HardwareCost, BudgetFromTheBundleWithHeadroomAndItsViolations) {
  const auto r = cost_of(kInputs / "tpu_like_quad_core.yaml");
  const auto budget = budget_from(r, 0.1);
  expect_rel(*budget.max_area_mm2, 9.00530048);
  expect_rel(*budget.max_energy_pj_per_cycle, 18'570.288);
  EXPECT_EQ(budget.label, "tpu_like_quad_core x1.1");
  EXPECT_EQ(check_budget(r, budget).str(), "within budget");
  EXPECT_TRUE(check_budget(r, budget_from(r, 0.0)).ok) << "the limit is strict: equal is within";
  // Half the area and no energy limit: 8.1866368 / 4.0933184 = 2.00x.
  const auto verdict = check_budget(r, HardwareBudget{r.total_area_mm2 / 2, std::nullopt, "half"});
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.str(), "area 8.187 mm2 exceeds budget 4.093 mm2 (2.00x)");
  const auto both = check_budget(r, HardwareBudget{1.0, 1000.0, "tight"});
  EXPECT_EQ(both.str(),
            "area 8.187 mm2 exceeds budget 1.000 mm2 (8.19x); peak access energy 16882.080 pJ/cycle exceeds budget "
            "1000.000 pJ/cycle");
}

TEST(HardwareCost, SimbaSmallAsTheReferenceWorksItOut) {
  const auto r = cost_of(kInputs / "simba_small.yaml");
  EXPECT_EQ(r.bundle_name, "simba_package_small");
  // accumulation_buffer: served [D3, D4] of D1..D4 = 4, 4, 8, 8: 16 instances of 3072 bits.
  const auto& acc = memory(r, 0, "accumulation_buffer");
  EXPECT_EQ(acc.instances, 16);
  expect_rel(acc.area_mm2, 0.0049152);
  expect_rel(r.cores[0].area_mm2, 1.3631488);
  expect_rel(r.total_area_mm2, 5.4525952);
  expect_rel(r.memory_area_mm2, 4.6333952);
  expect_rel(r.compute_area_mm2, 0.8192);
  EXPECT_EQ(r.on_die_memory_bits, 46'333'952);
  expect_rel(r.peak_access_energy_pj_per_cycle, 20'398.08);
  expect_rel(r.off_die_access_energy_pj_per_cycle, 256.0);  // simba_offchip's r_cost 100 plays no part
}

TEST(HardwareCost, UnknownTechnologyNodeIsPricedAtN16WithAWarning) {
  const auto r = cost_of(kReference / "hardware" / "tpu_v7_ironwood.yaml");
  expect_rel(r.total_area_mm2, 709.656576);
  expect_rel(r.peak_access_energy_pj_per_cycle, 60'141'710.08);
  EXPECT_TRUE(r.technology_declared);
  EXPECT_EQ(r.technology_node, "n16");
  EXPECT_EQ(r.warnings, std::vector<std::string>{"node 'n3' unknown to the built-in model; priced at n16"});
  // The argument beats the file's key.
  const auto given = cost_of(kInputs / "tpu_like_quad_core.yaml", "N16");
  EXPECT_TRUE(given.technology_declared);
  EXPECT_TRUE(given.warnings.empty());
}

TEST(HardwareCost, AieTilesHaveOneTwoPortMemoryAndNoModelledCompute) {
  const auto r = cost_of(kReference / "aie" / "hardware" / "single_col.yaml");
  expect_rel(r.total_area_mm2, 0.4194304);
  expect_rel(r.peak_access_energy_pj_per_cycle, 901.12);
  EXPECT_EQ(r.compute_modelled, std::optional<bool>(false));
  EXPECT_EQ(r.cores[2].memories.size(), 1u);
  EXPECT_EQ(r.cores[2].memories[0].nb_ports, 2);
}

TEST(HardwareCost, CliPrintsTheReferenceReportAsJson) {
  const auto run = stream::test::run_stream("cost --hardware " + (kInputs / "tpu_like_quad_core.yaml").string() +
                                                " --format json",
                                            stream::test::Stderr::Discard);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto j = nlohmann::ordered_json::parse(run.out);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"bundle_name", "technology_node", "technology_declared", "cores",
                                            "total_area_mm2", "memory_area_mm2", "compute_area_mm2",
                                            "on_die_memory_bits", "off_die_memory_bits",
                                            "peak_access_energy_pj_per_cycle", "off_die_access_energy_pj_per_cycle",
                                            "warnings", "authored_disagreements", "accuracy_claim",
                                            "compute_modelled"}));
  expect_rel(j["total_area_mm2"].get<double>(), 8.1866368);
  EXPECT_EQ(j["cores"].size(), 7u);
  EXPECT_TRUE(j["cores"][6]["compute"].is_null());
  const auto bad = stream::test::run_stream("cost --hardware /nonexistent.yaml");
  EXPECT_EQ(bad.code, 2) << bad.out;
}
