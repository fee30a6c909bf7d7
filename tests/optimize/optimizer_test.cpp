// The mapping optimizer on small workloads: never worse than the automatic mapping, the same
// search whatever the thread count, a best mapping file that reruns to the best's figures, the
// evaluator's group-by-group sums equal to whole runs, and a workload nothing maps reported with
// the automatic mapping's diagnosis.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <string>

#include "bundled_hardware.hpp"
#include "optimize_workloads.hpp"
#include "stream/error.hpp"
#include "stream/mapping/group_mapping.hpp"
#include "stream/optimize/optimizer.hpp"
#include "stream/pipeline/run.hpp"

using namespace stream;
using namespace stream::optimize;

namespace {

OptimizeSpec budget(std::size_t evaluations, int jobs, Objective objective = Objective::Latency) {
  OptimizeSpec s;
  s.evaluations = evaluations;
  s.jobs = jobs;
  s.objective = objective;
  s.seed = 3;
  return s;
}

pipeline::RunSpec prepared() {
  pipeline::RunSpec s;
  s.order = pipeline::WorkloadOrder::AsPrepared;
  return s;
}

}  // namespace

TEST(Optimizer, NeverWorseThanTheAutomaticMappingAndItsBestReruns) {
  const auto& acc = test::bundled_accelerator("tpu_like_quad_core.yaml");
  const Workload w = test::gemm_chain(4, 16, 64);
  const auto automatic = pipeline::run(w, acc, prepared());
  const auto r = optimize_mapping(w, acc, budget(120, 2), prepared());
  ASSERT_TRUE(automatic.solved());
  EXPECT_EQ(r.automatic()->latency, automatic.total_latency);  // evaluation 0 is the automatic run itself
  EXPECT_LE(r.best_run.total_latency, automatic.total_latency);
  EXPECT_EQ(r.spent(), 120u);
  ASSERT_TRUE(r.best_evaluation) << "120 candidates on four matrix products found nothing better";
  EXPECT_LT(r.best_run.total_latency, automatic.total_latency);
  // The best candidate's figures as the evaluator summed them, group by group, are the whole run's.
  const auto& best = r.evaluations.at(*r.best_evaluation);
  ASSERT_TRUE(best.figures);
  EXPECT_EQ(best.figures->latency, r.best_run.total_latency);
  EXPECT_TRUE(std::isnan(best.figures->energy));  // a latency search solves the latency level only
  // best_mapping.yaml's contents rerun (as a mapping file would) to the same figures.
  const auto text = mapping::to_yaml(r.best_mapping);
  pipeline::RunSpec again = prepared();
  again.mapping_data = std::make_shared<const mapping::Mapping>(mapping::parse_mapping_text(text, "best_mapping.yaml"));
  const auto rerun = pipeline::run(w, acc, again);
  EXPECT_EQ(rerun.total_latency, r.best_run.total_latency);
  EXPECT_DOUBLE_EQ(rerun.total_energy, r.best_run.total_energy);
  EXPECT_EQ(rerun.groups.size(), r.best_run.groups.size());
}

TEST(Optimizer, TheSearchIsTheSeedsWhateverTheThreads) {
  const auto& acc = test::bundled_accelerator("tpu_like_quad_core.yaml");
  const Workload w = test::gemm_chain(3, 16, 64);
  const auto one = optimize_mapping(w, acc, budget(60, 1), prepared());
  const auto two = optimize_mapping(w, acc, budget(60, 2), prepared());
  const auto four = optimize_mapping(w, acc, budget(60, 4), prepared());
  EXPECT_EQ(optimize_yaml(one), optimize_yaml(two));
  EXPECT_EQ(optimize_yaml(one), optimize_yaml(four));
  EXPECT_EQ(mapping::to_yaml(one.best_mapping), mapping::to_yaml(four.best_mapping));
  auto other_seed = budget(60, 2);
  other_seed.seed = 4;
  EXPECT_NE(optimize_yaml(optimize_mapping(w, acc, other_seed, prepared())), optimize_yaml(one));
}

TEST(Optimizer, ParetoKeepsANonDominatedFrontWithAMappingPerPoint) {
  const auto& acc = test::bundled_accelerator("tpu_like_quad_core.yaml");
  const Workload w = test::gemm_chain(3, 16, 64);
  const auto r = optimize_mapping(w, acc, budget(80, 2, Objective::Pareto), prepared());
  ASSERT_FALSE(r.front.empty());
  for (std::size_t a = 0; a < r.front.size(); ++a) {
    for (std::size_t b = 0; b < r.front.size(); ++b)
      if (a != b) {
        const auto &x = r.front[a].figures, &y = r.front[b].figures;
        EXPECT_FALSE(x.latency <= y.latency && x.energy <= y.energy) << "point " << a << " dominates point " << b;
      }
    pipeline::RunSpec s = prepared();
    s.mapping_data = std::make_shared<const mapping::Mapping>(r.front[a].mapping);
    const auto rerun = pipeline::run(w, acc, s);
    EXPECT_EQ(rerun.total_latency, r.front[a].figures.latency) << "front point " << a;
    EXPECT_DOUBLE_EQ(rerun.total_energy, r.front[a].figures.energy) << "front point " << a;
  }
  // Every feasible candidate is dominated by (or on) the front.
  for (const auto& e : r.evaluations) {
    if (!e.figures) continue;
    bool covered = false;
    for (const auto& p : r.front)
      covered = covered || (p.figures.latency <= e.figures->latency && p.figures.energy <= e.figures->energy * (1 + 1e-12));
    EXPECT_TRUE(covered) << "candidate " << e.index;
  }
}

TEST(Optimizer, ACancelledSearchKeepsTheBestFoundSoFar) {
  const auto& acc = test::bundled_accelerator("tpu_like_quad_core.yaml");
  const Workload w = test::gemm_chain(3, 16, 64);
  std::atomic<bool> stop{false};
  pipeline::RunEnv env;
  env.cancel = &stop;
  int lines = 0;
  env.progress = [&](const std::string& line) {
    if (line.find("evaluations") != std::string::npos && ++lines == 1) stop = true;  // after its first report
  };
  const auto r = optimize_mapping(w, acc, budget(1'000'000, 1), prepared(), env);
  EXPECT_TRUE(r.cancelled);
  EXPECT_LT(r.spent(), 1'000'000u);
  EXPECT_LE(r.best_run.total_latency, r.automatic()->latency);
  EXPECT_NE(optimize_yaml(r).find("cut_short: true"), std::string::npos);
}

TEST(Optimizer, NothingFeasibleGivesTheAutomaticMappingsDiagnosis) {
  const auto& acc = test::bundled_accelerator("tpu_like_quad_core.yaml");
  // A 4096 x 4096 bf16 weight (256 Mbit) fits in no core's memory, split over all five that may
  // run it, when the caller's tiling keeps it whole and nothing may tile it finer.
  const Workload w = test::gemm_chain(1, 1, 4096);
  pipeline::RunSpec s = prepared();
  s.memory_fallback = false;
  s.intra_core_tiling = {{"gemm1", 0, 1}};
  const auto automatic = pipeline::run(w, acc, s);
  ASSERT_FALSE(automatic.solved());
  ASSERT_GT(automatic.groups.front().allocation.infeasibility.size(), 40u);
  const auto r = optimize_mapping(w, acc, budget(16, 1), s);
  EXPECT_FALSE(r.best_evaluation);
  EXPECT_FALSE(r.automatic());
  for (const auto& e : r.evaluations) EXPECT_FALSE(e.figures) << "candidate " << e.index << " is feasible";
  ASSERT_FALSE(r.best_run.solved());
  EXPECT_EQ(r.best_run.groups.front().allocation.infeasibility, automatic.groups.front().allocation.infeasibility);
}
