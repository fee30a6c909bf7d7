// optimize_outcome_json and optimize_row_columns (host/optimize_outcome.hpp) on outcomes made by
// hand: the budget spent is the evaluations after the automatic one, an infeasible automatic
// mapping has null figures (its objective is +inf, which JSON cannot hold), the best's figures
// are the best run's, and the paths are the result folder's.
#include <gtest/gtest.h>

#include "optimize_outcome.hpp"

namespace {

using stream::optimize::OptimizeResult;

// Five evaluations of a budget of 10 (the automatic one and four), cut short, the third best.
OptimizeResult cut_short_outcome(bool automatic_solved) {
  OptimizeResult r;
  r.spec.evaluations = 10;
  r.evaluations.resize(5);
  r.cancelled = true;
  r.best_evaluation = 3;
  r.automatic_solved = automatic_solved;
  r.automatic = {200, 3.0};
  return r;
}

stream::pipeline::RunResult best_run() {
  stream::pipeline::RunResult best;
  best.total_latency = 100;
  best.total_energy = 2.5;
  best.edp = 250;
  return best;
}

}  // namespace

TEST(OptimizeOutcome, TheBudgetSpentAndTheBestsFigures) {
  const auto j = stream::host::optimize_outcome_json(cut_short_outcome(true), best_run(), "out/opt");
  EXPECT_EQ(j["objective"], "latency");
  EXPECT_EQ(j["evaluations"], 10);
  EXPECT_EQ(j["evaluations_spent"], 4);
  EXPECT_EQ(j["cut_short"], true);
  EXPECT_EQ(j["best_evaluation"], 3);
  EXPECT_EQ(j["automatic"]["latency"], 200);
  EXPECT_DOUBLE_EQ(j["automatic"]["edp"].get<double>(), 600.0);  // 200 cycles x 3 pJ
  EXPECT_EQ(j["best"]["latency"], 100);
  EXPECT_DOUBLE_EQ(j["best"]["edp"].get<double>(), 250.0);
  EXPECT_EQ(j["best_mapping"], "out/opt/best_mapping.yaml");
  EXPECT_EQ(j["optimize_file"], "out/opt/optimize.yaml");
  EXPECT_FALSE(j.contains("front_points"));
}

TEST(OptimizeOutcome, AnInfeasibleAutomaticMappingHasNullFigures) {
  auto r = cut_short_outcome(false);
  r.best_evaluation.reset();
  const auto j = stream::host::optimize_outcome_json(r, best_run());
  EXPECT_EQ(j["automatic"]["feasible"], false);
  EXPECT_TRUE(j["automatic"]["latency"].is_null());
  EXPECT_TRUE(j["best_evaluation"].is_null());
  EXPECT_FALSE(j.contains("best_mapping"));  // no folder given
  const auto row = stream::host::optimize_row_columns(r);
  EXPECT_TRUE(row["automatic_latency"].is_null());
  EXPECT_TRUE(row["automatic_energy_pj"].is_null());
  EXPECT_TRUE(row["best_evaluation"].is_null());
  EXPECT_EQ(row["evaluations_spent"], 4);
  EXPECT_EQ(row["cut_short"], true);
}

TEST(OptimizeOutcome, AParetoOutcomeCountsItsFrontPoints) {
  auto r = cut_short_outcome(true);
  r.spec.objective = stream::optimize::Objective::Pareto;
  r.front.resize(3);
  const auto j = stream::host::optimize_outcome_json(r, best_run());
  EXPECT_EQ(j["objective"], "pareto");
  EXPECT_EQ(j["front_points"], 3);
}
