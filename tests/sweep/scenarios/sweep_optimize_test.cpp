// The sweep axis `mapping: optimize?...` end to end on the default 2-conv and TPU-like quad core:
// the point's row is the optimizer's best with its columns, its kept folder has the optimizer's
// files, the result does not depend on the point's jobs=, and a bad option stops the sweep at its
// line before any point runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bad_optimize_options.hpp"
#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;

namespace {

fs::path optimize_sweep_dir(const std::string& name, const std::string& sweep_text) {
  const auto dir = stream::test::fresh_scratch_dir("sweep", name);
  std::ofstream(dir / "sweep.yaml") << sweep_text;
  return dir;
}

}  // namespace

// auto beside optimize on one workload and hardware: the optimizer's automatic figures are the
// auto point's own (an independent run of the automatic mapping), its best is never worse, and the
// kept best_mapping.yaml reruns with `stream run` to the row's figures.
TEST(SweepOptimize, OptimizeAxisRowsAreTheBestWithTheOptimizersColumns) {
  const auto dir = optimize_sweep_dir("optimize", "axes:\n  mapping: [auto, \"optimize?evaluations=20&seed=3\"]\n");
  const auto r = stream::test::run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() +
                                          " --keep-points");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  ASSERT_EQ(rs[0]["status"], "ok") << rs[0];
  ASSERT_EQ(rs[1]["status"], "ok") << rs[1];
  EXPECT_FALSE(rs[0].contains("evaluations_spent")) << rs[0];
  const auto& o = rs[1];
  EXPECT_EQ(o["evaluations_spent"], 20) << o;
  EXPECT_EQ(o["cut_short"], false) << o;
  EXPECT_EQ(o["automatic_latency"], rs[0]["latency"]) << o;
  EXPECT_DOUBLE_EQ(o["automatic_energy_pj"].get<double>(), rs[0]["energy_pj"].get<double>()) << o;
  EXPECT_LE(o["latency"].get<std::int64_t>(), rs[0]["latency"].get<std::int64_t>()) << o;
  if (!o["best_evaluation"].is_null()) {
    EXPECT_GE(o["best_evaluation"].get<int>(), 1) << o;
    EXPECT_LE(o["best_evaluation"].get<int>(), 20) << o;
    EXPECT_LT(o["latency"].get<std::int64_t>(), rs[0]["latency"].get<std::int64_t>()) << o;
  }
  // The csv has the optimizer's columns.
  EXPECT_NE(stream::test::read(dir / "out" / "results.csv").find("best_evaluation,evaluations_spent,cut_short"),
            std::string::npos);
  // The kept folder: the optimizer's files, and the best mapping reruns to the row's figures.
  const auto point = dir / "out" / "points" / o["id"].get<std::string>();
  const auto listing = stream::test::read(point / "optimize.yaml");
  EXPECT_NE(listing.find("spent: 20"), std::string::npos) << listing;
  ASSERT_TRUE(fs::exists(point / "best_mapping.yaml"));
  const auto kept = nlohmann::json::parse(stream::test::read(point / "summary.json"));  // as `stream run` writes it
  EXPECT_EQ(kept["optimizer"]["spent"], 20) << kept["optimizer"];
  EXPECT_EQ(kept["optimizer"]["automatic"], rs[0]["latency"]) << kept["optimizer"];
  const auto rerun = stream::test::run_stream("run --mapping " + (point / "best_mapping.yaml").string() + " --out " +
                                              (dir / "rerun").string() + " --experiment-id best --summary-only");
  ASSERT_EQ(rerun.code, 0) << rerun.out;
  const auto summary = nlohmann::json::parse(stream::test::read(dir / "rerun" / "best" / "summary.json"));
  EXPECT_EQ(summary["total_latency"], o["latency"]);
}

// The point's optimizer takes one thread unless jobs= says otherwise, and the result is the same
// whatever the thread count: the same seed and budget on 1 and 2 threads give one best.
TEST(SweepOptimize, TheBestDoesNotDependOnThePointsJobs) {
  const auto dir = optimize_sweep_dir(
      "optimize_jobs", "axes:\n  mapping: [\"optimize?evaluations=16&seed=5\", \"optimize?evaluations=16&seed=5&jobs=2\"]\n");
  const auto r = stream::test::run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 2u);
  ASSERT_EQ(rs[0]["status"], "ok") << rs[0];
  EXPECT_NE(rs[0]["id"], rs[1]["id"]);  // the value as written is the identity
  for (const char* key : {"latency", "best_evaluation", "evaluations_spent", "automatic_latency"})
    EXPECT_EQ(rs[0][key], rs[1][key]) << key;
  EXPECT_DOUBLE_EQ(rs[0]["energy_pj"].get<double>(), rs[1]["energy_pj"].get<double>());
}

// Each bad option stops the sweep with exit 2 at the value's line and column (the list's second
// value, its quote at column 19), naming the option, and nothing is written.
TEST(SweepOptimize, ABadOptionStopsTheSweepAtItsValue) {
  for (const auto& c : stream::test::kBadOptimizeOptions) {
    const auto dir = optimize_sweep_dir("optimize_bad", std::string("axes:\n  mapping: [auto, \"") + c.text + "\"]\n");
    const auto r = stream::test::run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string());
    EXPECT_EQ(r.code, 2) << c.text << "\n" << r.out;
    EXPECT_NE(r.out.find("sweep.yaml:2:19: mapping optimize: " + std::string(c.says)), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("checked before any point runs"), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir / "out")) << c.text;
  }
}

// objective=pareto: the row is the front point of least EDP, so no worse in EDP than the automatic
// mapping (on the front, or dominated by a point of lower latency and energy), and the kept
// folder has a mapping file per front point.
TEST(SweepOptimize, AParetoPointKeepsTheFront) {
  const auto dir = optimize_sweep_dir("optimize_pareto", "axes:\n  mapping: [\"optimize?objective=pareto&evaluations=20\"]\n");
  const auto r = stream::test::run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() +
                                          " --keep-points");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rs = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rs.size(), 1u);
  const auto& o = rs[0];
  ASSERT_EQ(o["status"], "ok") << o;
  const double automatic_edp = o["automatic_latency"].get<double>() * o["automatic_energy_pj"].get<double>();
  EXPECT_LE(o["edp"].get<double>(), automatic_edp * (1 + 1e-12)) << o;
  const auto point = dir / "out" / "points" / o["id"].get<std::string>();
  EXPECT_TRUE(fs::exists(point / "front" / "point_0.yaml"));
  EXPECT_TRUE(fs::exists(point / "best_mapping.yaml"));
}
