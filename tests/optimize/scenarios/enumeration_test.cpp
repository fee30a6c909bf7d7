// On spaces small enough to enumerate, the optimizer finds the optimum. The enumeration is written
// apart from the optimizer: every candidate the space holds (for each node, every non-empty subset
// of its allowed cores with every split of that many cores over its free dims, and every set of
// fusion cuts), run through the pipeline. It uses the rule that makes the optimizer fast only as an
// invariant checked first: a run's latency is the sum of its groups', each group's depending on
// its own nodes and choices, so the optimum is, over the cut sets, the sum of each group's best.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <string>

#include "bundled_hardware.hpp"
#include "../optimize_workloads.hpp"
#include "stream/ir/iteration_space.hpp"
#include "stream/mapping/node_choice.hpp"
#include "stream/optimize/optimizer.hpp"
#include "stream/pipeline/fusion_groups.hpp"
#include "stream/pipeline/run.hpp"

using namespace stream;

namespace {

// Every (cores, split) of node `index`: subsets by bitmask, splits over one free dim or two.
std::vector<mapping::NodeChoice> all_choices(const Workload& w, std::size_t index, const hardware::Accelerator& acc) {
  const auto allowed = mapping::allowed_cores(w.node(index), acc);
  const auto free = mapping::splittable_dims(w, index);
  const auto sizes = loop_sizes(w.node(index));
  std::vector<mapping::NodeChoice> out;
  for (unsigned mask = 1; mask < (1u << allowed.size()); ++mask) {
    std::vector<int> cores;
    for (std::size_t b = 0; b < allowed.size(); ++b)
      if (mask & (1u << b)) cores.push_back(allowed[b]);
    const auto c = static_cast<std::int64_t>(cores.size());
    if (c == 1) out.push_back({cores, {}});
    for (int d1 = 0; d1 < static_cast<int>(free.size()) && c > 1; ++d1) {
      if (!free[static_cast<std::size_t>(d1)]) continue;
      if (sizes[static_cast<std::size_t>(d1)] >= c) out.push_back({cores, {{d1, c}}});
      for (int d2 = d1 + 1; d2 < static_cast<int>(free.size()); ++d2)
        for (std::int64_t f = 2; f < c; ++f)
          if (free[static_cast<std::size_t>(d2)] && c % f == 0 && f <= sizes[static_cast<std::size_t>(d1)] &&
              c / f <= sizes[static_cast<std::size_t>(d2)])
            out.push_back({cores, {{d1, f}, {d2, c / f}}});
    }
  }
  return out;
}

struct Enumeration {
  std::int64_t optimum = std::numeric_limits<std::int64_t>::max();
  std::size_t candidates = 0;
};

pipeline::RunSpec group_spec(const mapping::NodeChoices& choices) {
  pipeline::RunSpec s;
  s.order = pipeline::WorkloadOrder::AsPrepared;
  s.cut_mode = pipeline::CutMode::None;
  s.node_choices = std::make_shared<const mapping::NodeChoices>(choices);
  return s;
}

// The least latency of `group` over its nodes' joint choices (max when none is feasible).
std::int64_t group_optimum(const Workload& group, const hardware::Accelerator& acc, pipeline::RunEnv& env, std::size_t& count) {
  std::vector<std::size_t> nodes = group.computation_nodes();
  std::vector<std::vector<mapping::NodeChoice>> options;
  for (std::size_t i : nodes) options.push_back(all_choices(group, i, acc));
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  mapping::NodeChoices choices;
  std::function<void(std::size_t)> walk = [&](std::size_t k) {
    if (k == nodes.size()) {
      ++count;
      try {
        const auto r = pipeline::run(group, acc, group_spec(choices), env);
        if (r.solved()) best = std::min(best, r.total_latency);
      } catch (const Error&) {
      }
      return;
    }
    for (const auto& c : options[k]) {
      choices[group.node(nodes[k]).name] = c;
      walk(k + 1);
    }
  };
  walk(0);
  return best;
}

Enumeration enumerate(const Workload& w, const hardware::Accelerator& acc) {
  std::vector<std::string> names;
  for (std::size_t i : w.dataflow_order())
    if (w.node(i).has_iteration_space()) names.push_back(w.node(i).name);
  pipeline::RunEnv env;
  env.cache = std::make_shared<pipeline::RunCache>();
  std::map<std::string, std::int64_t> memo;  // a group by its first and last node
  Enumeration e;
  for (unsigned cuts = 0; cuts < (1u << (names.size() - 1)); ++cuts) {
    std::vector<std::string> at;
    for (std::size_t k = 0; k + 1 < names.size(); ++k)
      if (cuts & (1u << k)) at.push_back(names[k]);
    std::int64_t total = 0;
    bool feasible = true;
    for (const auto& g : pipeline::split_fusion_groups(w, at)) {
      const auto compute = g.computation_nodes();
      const std::string key = g.node(compute.front()).name + ".." + g.node(compute.back()).name;
      if (!memo.count(key)) memo[key] = group_optimum(g, acc, env, e.candidates);
      feasible = feasible && memo[key] < std::numeric_limits<std::int64_t>::max();
      if (feasible) total += memo[key];
    }
    if (feasible) e.optimum = std::min(e.optimum, total);
  }
  return e;
}

optimize::OptimizeResult optimized(const Workload& w, const hardware::Accelerator& acc, std::size_t evaluations) {
  optimize::OptimizeSpec spec;
  spec.evaluations = evaluations;
  spec.jobs = 2;
  pipeline::RunSpec base;
  base.order = pipeline::WorkloadOrder::AsPrepared;
  return optimize::optimize_mapping(w, acc, spec, base);
}

}  // namespace

// The invariant the enumeration (and the optimizer) rests on, on a candidate with two groups.
TEST(Enumeration, ARunIsTheSumOfItsGroupsRunAlone) {
  const auto& acc = test::bundled_accelerator("tpu_like_quad_core.yaml");
  const Workload w = test::gemm_chain(3, 1, 32);
  mapping::NodeChoices choices{{"gemm1", {{0, 1}, {{2, 2}}}}, {"gemm2", {{2}, {}}}, {"gemm3", {{1, 2, 3}, {{2, 3}}}}};
  pipeline::RunSpec whole = group_spec(choices);
  whole.cut_mode = pipeline::CutMode::Explicit;
  whole.cut_points = {"gemm1"};
  const auto r = pipeline::run(w, acc, whole);
  ASSERT_TRUE(r.solved());
  std::int64_t sum = 0;
  for (const auto& g : pipeline::split_fusion_groups(w, {"gemm1"})) sum += pipeline::run(g, acc, group_spec(choices)).total_latency;
  EXPECT_EQ(sum, r.total_latency);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[1].mapping.nodes[r.groups[1].workload.computation_nodes().back()].cores, (std::vector<int>{1, 2, 3}));
}

TEST(Enumeration, TheOptimizerFindsTheOptimumOfTwoConvsOnADualCore) {
  const auto& acc = test::bundled_accelerator("eyeriss_like_dual_core.yaml");
  const Workload w = test::two_conv();
  const Enumeration e = enumerate(w, acc);
  ASSERT_LT(e.optimum, std::numeric_limits<std::int64_t>::max());
  const auto r = optimized(w, acc, 300);
  EXPECT_EQ(r.best_run.total_latency, e.optimum) << e.candidates << " group mappings enumerated";
}

TEST(Enumeration, TheOptimizerFindsTheOptimumOfAThreeLayerChainOnTheQuadCore) {
  const auto& acc = test::bundled_accelerator("tpu_like_quad_core.yaml");
  const Workload w = test::gemm_chain(3, 1, 32);
  const Enumeration e = enumerate(w, acc);
  ASSERT_LT(e.optimum, std::numeric_limits<std::int64_t>::max());
  const auto r = optimized(w, acc, 2000);
  EXPECT_EQ(r.best_run.total_latency, e.optimum) << e.candidates << " group mappings enumerated";
}
