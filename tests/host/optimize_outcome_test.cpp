// optimizer_figures and optimize_row_columns (host/optimize_outcome.hpp) on outcomes made by hand:
// the budget spent is the evaluations after the automatic one, an infeasible automatic mapping
// has null figures (its objective is +inf, which JSON cannot hold), and the paths are the result
// folder's.
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
  if (automatic_solved) r.evaluations.front().figures = stream::optimize::Figures{200, 3.0};
  return r;
}

}  // namespace

TEST(OptimizeOutcome, TheAutomaticFiguresAndTheFiles) {
  const auto j = stream::host::optimizer_figures(cut_short_outcome(true), "out/opt");
  EXPECT_EQ(j["automatic_latency"], 200);
  EXPECT_DOUBLE_EQ(j["automatic_energy_pj"].get<double>(), 3.0);
  EXPECT_EQ(j["best_mapping"], "out/opt/best_mapping.yaml");
  EXPECT_EQ(j["optimize_file"], "out/opt/optimize.yaml");
}

TEST(OptimizeOutcome, TheRowsColumns) {
  const auto row = stream::host::optimize_row_columns(cut_short_outcome(true));
  EXPECT_EQ(row["automatic_latency"], 200);
  EXPECT_EQ(row["best_evaluation"], 3);
  EXPECT_EQ(row["evaluations_spent"], 4);
  EXPECT_EQ(row["cut_short"], true);
}

TEST(OptimizeOutcome, AnInfeasibleAutomaticMappingHasNullFigures) {
  auto r = cut_short_outcome(false);
  r.best_evaluation.reset();
  EXPECT_TRUE(stream::host::optimizer_figures(r, "d")["automatic_latency"].is_null());
  const auto row = stream::host::optimize_row_columns(r);
  EXPECT_TRUE(row["automatic_latency"].is_null());
  EXPECT_TRUE(row["automatic_energy_pj"].is_null());
  EXPECT_TRUE(row["best_evaluation"].is_null());
}
