// `stream run --cost-profile` end to end (docs/cost-model.md, "Cost profiles"), on the bundled
// residual block (a Relu and an Add the per-core model cannot cost on the TPU-like quad core):
// every estimate's energy is the traffic model's under both profiles, and says so in
// core_cost_lut.yaml; only under `full` is an estimate's latency raised to its port cycles.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::test::run_stream;

namespace {

const std::string kResidual = std::string(STREAM_INPUTS_DIR) + "/workload/residual_block.onnx";

struct Entry {
  double latency = 0, energy = 0, ideal = 0, traffic = 0;
  bool bound = false;
};

// The ideal-cycle entries of every group's cost table, by (node, core); the other entries' figures
// go to `others`, which both profiles must leave equal.
struct Table {
  std::map<std::pair<std::string, int>, Entry> estimates, others;
};

Table read_tables(const fs::path& dir) {
  Table t;
  for (int g = 0; fs::exists(dir / ("group_" + std::to_string(g))); ++g)
    for (const auto& n : YAML::LoadFile((dir / ("group_" + std::to_string(g)) / "core_cost_lut.yaml").string())["nodes"])
      for (const auto& c : n["cores"]) {
        const auto& m = c["metadata"];
        Entry e{c["latency_total"].as<double>(), c["energy_total"].as<double>(), c["ideal_cycle"].as<double>(),
                m["traffic_cycles"] ? m["traffic_cycles"].as<double>() : -1, bool(m["latency_model"])};
        const bool estimate = m["backend"].as<std::string>() == "ideal-cycle";
        if (estimate) EXPECT_EQ(m["energy_model"].as<std::string>(), "traffic") << n["name"];
        else EXPECT_FALSE(m["energy_model"]) << n["name"];
        (estimate ? t.estimates : t.others)[{n["name"].as<std::string>(), c["core_id"].as<int>()}] = e;
      }
  return t;
}

}  // namespace

TEST(CostProfile, FullRaisesOnlyTheEstimatesLatencyToTheirPortCycles) {
  const auto out = stream::test::fresh_scratch_dir("pipeline", "cost_profile");
  const auto ref = run_stream("run --workload " + kResidual + " --out " + out.string());
  ASSERT_EQ(ref.code, 0) << ref.out;
  const auto full = run_stream("run --workload " + kResidual + " --out " + out.string() + " --cost-profile full");
  ASSERT_EQ(full.code, 0) << full.out;
  // A full-profile run has a directory of its own beside the default one.
  const Table r = read_tables(out / "tpu_like_quad_core-residual_block-constraint_optimization");
  const Table f = read_tables(out / "tpu_like_quad_core-residual_block-full-constraint_optimization");
  ASSERT_EQ(r.estimates.size(), 2u);  // the Relu and the Add, each on its one core
  ASSERT_EQ(f.estimates.size(), r.estimates.size());
  int raised = 0;
  for (const auto& [key, e] : r.estimates) {
    const Entry& g = f.estimates.at(key);
    EXPECT_EQ(e.latency, e.ideal) << key.first;  // the reference's rule (1 cycle per op here)
    EXPECT_FALSE(e.bound) << key.first;
    EXPECT_GT(e.energy, 0) << key.first;
    EXPECT_EQ(g.energy, e.energy) << key.first;
    EXPECT_EQ(g.traffic, e.traffic) << key.first;
    EXPECT_EQ(g.latency, std::max(e.latency, e.traffic)) << key.first;
    EXPECT_EQ(g.bound, e.traffic > e.latency) << key.first;
    raised += g.bound ? 1 : 0;
  }
  EXPECT_GT(raised, 0);  // else this test would not show the bound
  for (const auto& [key, e] : r.others) {
    EXPECT_EQ(f.others.at(key).latency, e.latency) << key.first;
    EXPECT_EQ(f.others.at(key).energy, e.energy) << key.first;
  }
}

TEST(CostProfile, AnUnknownProfileIsABadInput) {
  const auto r = run_stream("run --workload " + kResidual + " --out " +
                            stream::test::fresh_scratch_dir("pipeline", "cost_profile_bad").string() +
                            " --cost-profile fast");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--cost-profile: unknown cost profile 'fast' (expected reference or full)"), std::string::npos)
      << r.out;
}
