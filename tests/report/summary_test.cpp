// summary.yaml / summary.json's `optimizer` block (report/summary.hpp): the figures of a hand-made
// search, null where the automatic mapping failed, absent from a run that was not optimized, and
// in a real `stream run --mapping optimize` the same figures as optimize.yaml's (both parsed).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "report_runs.hpp"
#include "stream/report/summary.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using stream::report::OptimizerReport;

namespace {

// An energy search cut short after 12 of its 40 evaluations, its best (evaluation 7) at 150 pJ
// against the automatic mapping's 200 pJ: a ratio of 3/4.
OptimizerReport cut_short_search() {
  OptimizerReport o;
  o.objective = "energy";
  o.automatic = 200.0;
  o.best = 150.0;
  o.budget = 40;
  o.spent = 12;
  o.cut_short = true;
  o.still_improving = true;
  o.best_evaluation = 7;
  o.group_runs = 9;
  return o;
}

YAML::Node yaml_block(const OptimizerReport* o) {
  return YAML::Load(stream::report::summary_yaml(stream::pipeline::RunResult{}, nullptr, nullptr, o))["optimizer"];
}
json json_block(const OptimizerReport* o) {
  const auto j = json::parse(stream::report::summary_json(stream::pipeline::RunResult{}, nullptr, nullptr, o));
  return j.contains("optimizer") ? j["optimizer"] : json();
}

}  // namespace

TEST(Summary, OptimizerBlockSaysWhatTheSearchDidAndThatItWasCutShort) {
  const auto o = cut_short_search();
  const auto y = yaml_block(&o);
  ASSERT_TRUE(y.IsMap());
  EXPECT_EQ(y["objective"].as<std::string>(), "energy");
  EXPECT_EQ(y["automatic"].as<double>(), 200.0);
  EXPECT_EQ(y["best"].as<double>(), 150.0);
  EXPECT_EQ(y["ratio"].as<double>(), 0.75);
  EXPECT_EQ(y["evaluations"].as<int>(), 40);
  EXPECT_EQ(y["spent"].as<int>(), 12);
  EXPECT_TRUE(y["cut_short"].as<bool>());
  EXPECT_TRUE(y["still_improving"].as<bool>());
  EXPECT_EQ(y["best_evaluation"].as<int>(), 7);
  EXPECT_EQ(y["group_runs"].as<int>(), 9);
  EXPECT_EQ(y["file"].as<std::string>(), "optimize.yaml");
  const auto j = json_block(&o);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["objective"], "energy");
  EXPECT_EQ(j["automatic"], 200.0);
  EXPECT_EQ(j["best"], 150.0);
  EXPECT_EQ(j["ratio"], 0.75);
  EXPECT_EQ(j["evaluations"], 40);
  EXPECT_EQ(j["spent"], 12);
  EXPECT_EQ(j["cut_short"], true);
  EXPECT_EQ(j["still_improving"], true);
  EXPECT_EQ(j["best_evaluation"], 7);
  EXPECT_EQ(j["group_runs"], 9);
}

// The automatic mapping failed: no figure to compare with, so no ratio (null, not inf or nan); a
// search that kept the automatic mapping has no best evaluation.
TEST(Summary, OptimizerBlockHasNullsWhereThereIsNoFigure) {
  auto o = cut_short_search();
  o.automatic.reset();
  o.best_evaluation.reset();
  const auto y = yaml_block(&o);
  EXPECT_TRUE(y["automatic"].IsNull());
  EXPECT_TRUE(y["ratio"].IsNull());
  EXPECT_TRUE(y["best_evaluation"].IsNull());
  const auto j = json_block(&o);
  EXPECT_TRUE(j["automatic"].is_null());
  EXPECT_TRUE(j["ratio"].is_null());
  EXPECT_TRUE(j["best_evaluation"].is_null());
}

TEST(Summary, NoOptimizerBlockWithoutTheOptimizer) {
  EXPECT_FALSE(yaml_block(nullptr).IsDefined());
  EXPECT_TRUE(json_block(nullptr).is_null());
  const auto run = stream::test::default_run("summary_not_optimized");
  EXPECT_FALSE(YAML::LoadFile((run / "summary.yaml").string())["optimizer"].IsDefined());
  EXPECT_FALSE(json::parse(stream::test::read(run / "summary.json")).contains("optimizer"));
}

namespace {

// summary.yaml's and summary.json's block against optimize.yaml's figures. `automatic`: the
// automatic mapping's objective value as the test derives it from optimize.yaml.
void expect_same_figures(const fs::path& run, double automatic) {
  const auto opt = YAML::LoadFile((run / "optimize.yaml").string());
  const auto y = YAML::LoadFile((run / "summary.yaml").string())["optimizer"];
  const auto j = json::parse(stream::test::read(run / "summary.json"))["optimizer"];
  ASSERT_TRUE(y.IsMap());
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(y["objective"].as<std::string>(), opt["optimize"]["objective"].as<std::string>());
  EXPECT_EQ(y["automatic"].as<double>(), automatic);
  EXPECT_EQ(y["best"].as<double>(), opt["best"]["objective"].as<double>());
  EXPECT_EQ(y["ratio"].as<double>(), opt["best"]["ratio"].as<double>());
  EXPECT_EQ(y["evaluations"].as<int>(), opt["budget"]["evaluations"].as<int>());
  EXPECT_EQ(y["spent"].as<int>(), opt["budget"]["spent"].as<int>());
  EXPECT_EQ(y["cut_short"].as<bool>(), opt["budget"]["cut_short"].as<bool>());
  EXPECT_EQ(y["still_improving"].as<bool>(), opt["budget"]["still_improving"].as<bool>());
  EXPECT_EQ(y["best_evaluation"].IsNull(), opt["best"]["evaluation"].IsNull());
  if (!opt["best"]["evaluation"].IsNull()) {
    EXPECT_EQ(y["best_evaluation"].as<int>(), opt["best"]["evaluation"].as<int>());
  }
  EXPECT_EQ(y["group_runs"].as<int>(), opt["group_runs"].as<int>());
  // summary.json: the same figures, as numbers.
  for (const char* key : {"automatic", "best", "ratio"}) EXPECT_EQ(j[key].get<double>(), y[key].as<double>()) << key;
  for (const char* key : {"evaluations", "spent", "group_runs"}) EXPECT_EQ(j[key].get<int>(), y[key].as<int>()) << key;
  EXPECT_EQ(j["objective"].get<std::string>(), y["objective"].as<std::string>());
  EXPECT_EQ(j["cut_short"].get<bool>(), y["cut_short"].as<bool>());
  EXPECT_EQ(j["still_improving"].get<bool>(), y["still_improving"].as<bool>());
  EXPECT_EQ(j["best_evaluation"].is_null(), y["best_evaluation"].IsNull());
  // And the best's figures are the run's (the result files describe the best mapping).
  EXPECT_EQ(YAML::LoadFile((run / "summary.yaml").string())["total_latency"].as<long>(), opt["best"]["latency"].as<long>());
}

}  // namespace

TEST(Summary, OptimizedRunsSummaryHasOptimizeYamlsFigures) {
  const auto run = stream::test::report_run("summary_optimized", "--mapping 'optimize?evaluations=16&jobs=2'");
  const auto opt = YAML::LoadFile((run / "optimize.yaml").string());
  ASSERT_EQ(opt["budget"]["spent"].as<int>(), 16);
  expect_same_figures(run, opt["automatic"]["objective"].as<double>());
}

// Pareto's best is the front point of least EDP, so its automatic figure is the automatic mapping's
// EDP, which optimize.yaml gives as latency and energy (its `objective` there is the ranked latency).
TEST(Summary, ParetoRunsSummaryComparesEnergyDelayProducts) {
  const auto run = stream::test::report_run("summary_pareto", "--mapping 'optimize?objective=pareto&evaluations=16&jobs=2'");
  const auto a = YAML::LoadFile((run / "optimize.yaml").string())["automatic"];
  expect_same_figures(run, a["latency"].as<double>() * a["energy"].as<double>());
}
