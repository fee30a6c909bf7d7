// host/optimizer_report.cpp: the optimizer's outcome as the result files show it. The objective
// values are the ones optimize.yaml gives: for pareto the EDPs of the automatic mapping and of the
// best run (the front point of least EDP), with their ratio; none where the automatic mapping
// failed; each candidate as evaluated, a failed one without figures.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "optimizer_report.hpp"

namespace {

using stream::optimize::Evaluation;
using stream::optimize::Figures;
using stream::optimize::Objective;
using stream::optimize::OptimizeResult;

// A pareto search of budget 10 stopped by Ctrl-C after 2 evaluations: the automatic mapping
// (100 cycles, 2 pJ), a failed candidate, and one of 80 cycles and 3 pJ; its best run has 90
// cycles and 1.5 pJ; 5 group runs; a front of two points.
OptimizeResult cut_short_pareto() {
  OptimizeResult r;
  r.spec.objective = Objective::Pareto;
  r.spec.evaluations = 10;
  const double inf = std::numeric_limits<double>::infinity();
  r.evaluations = {Evaluation{0, "automatic", Figures{100, 2.0}, "", 100, true},
                   Evaluation{1, "move a", std::nullopt, "infeasible", inf, false},
                   Evaluation{2, "move b", Figures{80, 3.0}, "", 80, true}};
  r.best_curve = {{0, 100}, {2, 80}};
  r.cancelled = true;
  r.group_runs = 5;
  r.best_evaluation = 2;
  r.front.push_back({2, Figures{80, 3.0}, {}});
  r.front.push_back({0, Figures{100, 2.0}, {}});
  return r;
}

stream::pipeline::RunResult run_of(std::int64_t latency, double energy) {
  stream::pipeline::RunResult best;
  best.total_latency = latency;
  best.total_energy = energy;
  return best;
}

}  // namespace

TEST(OptimizerReport, ParetoFiguresAreEnergyDelayProducts) {
  const auto o = stream::host::optimizer_report(cut_short_pareto(), run_of(90, 1.5));
  EXPECT_EQ(o.objective, "pareto");
  ASSERT_TRUE(o.automatic.has_value());
  EXPECT_DOUBLE_EQ(*o.automatic, 200.0);  // 100 cycles x 2 pJ
  EXPECT_DOUBLE_EQ(o.best, 135.0);        // 90 x 1.5
  ASSERT_TRUE(o.ratio().has_value());
  EXPECT_DOUBLE_EQ(*o.ratio(), 0.675);
  EXPECT_EQ(o.unit(), "pJ x cycles");
  EXPECT_EQ(o.ranked_unit(), "cycles");
  EXPECT_EQ(o.budget, 10u);
  EXPECT_EQ(o.spent, 2u);
  EXPECT_TRUE(o.cut_short);
  EXPECT_TRUE(o.still_improving);  // improved at evaluation 2 of 2 spent: within a tenth of 10
  EXPECT_EQ(o.best_evaluation, std::optional<std::size_t>(2));
  EXPECT_EQ(o.group_runs, 5u);
  ASSERT_EQ(o.front.size(), 2u);
  EXPECT_EQ(o.front[0].evaluation, 2u);
  EXPECT_EQ(o.front[0].latency, 80);
  EXPECT_EQ(o.front[0].mapping_file, "front/point_0.yaml");
  EXPECT_EQ(o.front[1].mapping_file, "front/point_1.yaml");
}

TEST(OptimizerReport, CandidatesAreCopiedAsEvaluatedAndAFailedOneHasNoFigures) {
  const auto o = stream::host::optimizer_report(cut_short_pareto(), run_of(90, 1.5));
  ASSERT_EQ(o.candidates.size(), 3u);
  EXPECT_TRUE(o.candidates[0].feasible);
  EXPECT_EQ(o.candidates[0].latency, 100);
  EXPECT_EQ(o.candidates[0].ranked, 100.0);
  EXPECT_TRUE(o.candidates[0].accepted);
  EXPECT_FALSE(o.candidates[1].feasible);
  EXPECT_TRUE(std::isinf(o.candidates[1].ranked));
  EXPECT_FALSE(o.candidates[1].accepted);
  EXPECT_EQ(o.candidates[2].index, 2u);
  EXPECT_EQ(o.candidates[2].energy, 3.0);
  ASSERT_EQ(o.best_so_far.size(), 2u);
  EXPECT_EQ(o.best_so_far[1], (std::pair<std::size_t, double>{2, 80.0}));
}

TEST(OptimizerReport, LatencySearchWithAFailedAutomaticMappingHasNoRatio) {
  auto r = cut_short_pareto();
  r.spec.objective = Objective::Latency;
  r.evaluations.front().figures.reset();  // the automatic mapping had no feasible allocation
  r.evaluations.front().objective = std::numeric_limits<double>::infinity();
  const auto o = stream::host::optimizer_report(r, run_of(90, 1.5));
  EXPECT_EQ(o.objective, "latency");
  EXPECT_FALSE(o.automatic.has_value());
  EXPECT_FALSE(o.ratio().has_value());
  EXPECT_EQ(o.best, 90.0);
  EXPECT_EQ(o.unit(), "cycles");
}
