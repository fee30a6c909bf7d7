// timings.* lists every attempt of the memory fallback (those of the fused groups it cut too) and
// every MILP solve, and its phases add up to the run's wall time. The fallback sequence tries no
// mapping twice and no finer fill once the tile cap stopped the capacity tiler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "stream_cli.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using stream::test::read;
using stream::test::run_stream;

namespace {

json timings_of(const std::string& name, const std::string& args) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / ("timings_" + name);
  fs::remove_all(out);
  const auto r = run_stream("run " + args + " --out " + out.string() + " --experiment-id exp", stream::test::Stderr::Discard);
  EXPECT_EQ(r.code, 0) << r.out;
  return json::parse(read(out / "exp" / "timings.json"));
}

// Every attempt list obeys the fallback's rules; returns the number of MILP solves listed.
std::size_t check_attempts(const json& attempts, const std::string& where) {
  std::size_t solves = 0;
  std::set<std::pair<double, std::string>> tried;  // a mapping is a function of (fill, excluded cores)
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const auto& a = attempts[i];
    EXPECT_TRUE(tried.insert({a["fill_fraction"].get<double>(), a["excluded_cores"].dump()}).second) << where << " attempt " << i;
    if (i > 0 && attempts[i - 1]["tile_cap_reached"].get<bool>()) {  // no finer fill after the cap
      EXPECT_FALSE(a["fill_fraction"].get<double>() < attempts[i - 1]["fill_fraction"].get<double>() &&
                   a["excluded_cores"] == attempts[i - 1]["excluded_cores"])
          << where << " attempt " << i;
    }
    if (a["capacity_bound_proved_infeasible"].get<bool>()) {  // only diagnosis solves, if any
      EXPECT_EQ(a["status"].get<std::string>(), "INFEASIBLE") << where << " attempt " << i;
      for (const auto& s : a["milp_solves"]) EXPECT_EQ(s["objective"].get<std::string>(), "diagnosis") << where;
    } else if (!a["reused_allocation"].get<bool>()) {
      EXPECT_FALSE(a["milp_solves"].empty()) << where << " attempt " << i;
    }
    solves += a["milp_solves"].size();
  }
  return solves;
}

void check_phases(const json& t, const std::string& where) {
  const double total = t["total_wall_time_s"].get<double>();
  const auto& p = t["phases"];
  double sum = 0;
  for (const char* k : {"grouping_time_s", "mapping_time_s", "tiling_time_s", "cost_table_time_s", "schedule_time_s",
                        "allocation_time_s", "results_time_s"})
    sum += p[k].get<double>();
  EXPECT_NEAR(p["accounted_time_s"].get<double>(), sum, 1e-5) << where;
  EXPECT_GT(total, 0.0) << where;
  // Within 5 %, or 25 ms on a short run: a busy machine may deschedule the run for a few time
  // slices between two phases, which no phase's clock sees.
  EXPECT_LE(std::abs(sum - total), std::max(0.05 * total, 0.025)) << where << ": phases " << sum << " s, run " << total << " s";
  EXPECT_LE(p["milp_solve_time_s"].get<double>(), p["allocation_time_s"].get<double>() + 1e-5) << where;
}

}  // namespace

// decoder_stack, 4 layers (84 compute nodes): the fused stack overflows the cores under the 1024
// tile cap, so its one attempt (fill 50 %, tiler stopped by the cap) is infeasible and, with no
// finer fill to try and no specialised core blocking alone, it is cut at once into 84 groups.
// The capacity bound proves the attempt infeasible (the tensors fixed on a core exceed it), so
// its allocation is not solved: its only solves are the diagnosis's.
TEST(Timings, CutFusedGroupKeepsItsAttemptAndEveryMilpSolve) {
  const json t = timings_of("decoder4", "--block decoder_stack --param layers=4");
  ASSERT_EQ(t["cut_groups"].size(), 1u);
  const auto& cut = t["cut_groups"][0];
  EXPECT_EQ(cut["compute_nodes"].get<int>(), 84);
  ASSERT_EQ(cut["attempts"].size(), 1u);
  const auto& a = cut["attempts"][0];
  EXPECT_TRUE(a["tile_cap_reached"].get<bool>());
  EXPECT_EQ(a["status"].get<std::string>(), "INFEASIBLE");
  EXPECT_TRUE(a["capacity_bound_proved_infeasible"].get<bool>());
  for (const auto& s : a["milp_solves"]) EXPECT_EQ(s["objective"].get<std::string>(), "diagnosis");
  EXPECT_EQ(t["groups"].size(), 84u);
  std::size_t solves = check_attempts(cut["attempts"], "cut group");
  for (const auto& [key, g] : t["groups"].items()) {
    ASSERT_FALSE(g["attempts"].empty()) << key;
    solves += check_attempts(g["attempts"], key);
    // The group's final lexicographic solve is among its last attempt's solves (0 when reused).
    EXPECT_LE(g["solve_time_s"].get<double>(), g["attempts"].back()["allocation_time_s"].get<double>() + 1e-5) << key;
  }
  EXPECT_EQ(t["phases"]["milp_solves"].get<std::size_t>(), solves);
  check_phases(t, "decoder4");
}

TEST(Timings, PhasesAddUpToTheRunsWallTime) {
  check_phases(timings_of("resnet18", std::string("--workload ") + STREAM_INPUTS_DIR + "/workload/exported/resnet18_op13.onnx"),
               "resnet18");
  check_phases(timings_of("twoconv", "--fusion-cut-points per-layer"), "2-conv per layer");
  const json fsrcnn = timings_of("fsrcnn", std::string("--workload ") + STREAM_TEST_DATA_DIR +
                                               "/reference/stream-inputs/workload/fsrcnn.onnx");
  check_phases(fsrcnn, "fsrcnn");
  for (const auto& c : fsrcnn["cut_groups"]) check_attempts(c["attempts"], "fsrcnn cut group");
  for (const auto& [key, g] : fsrcnn["groups"].items()) check_attempts(g["attempts"], "fsrcnn " + key);
}
