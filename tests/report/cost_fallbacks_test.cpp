// report::cost_fallbacks (report/cost_fallbacks.hpp): the count of estimated (node, core) costs,
// which of them the schedule uses, and the shares of latency and energy resting on them, on a
// hand-built two-group run whose figures are derived below; --strict's first MAC estimate.
#include <gtest/gtest.h>

#include <stream/report/cost_fallbacks.hpp>

using namespace stream;

namespace {

AffineMap dims(int n, std::vector<int> d) { return AffineMap::of_dims(n, d); }

cost::CostEntry entry(int core, double latency, double energy, bool estimate) {
  cost::CostEntry e;
  e.core_id = core;
  e.latency_total = latency;
  e.energy_total = energy;
  if (estimate) {
    e.backend = "ideal-cycle";
    e.reason = "one-input operator on a two-input array";
    e.detail = "KeyError: I2";
  }
  return e;
}

schedule::SsNode compute(const std::string& name, std::vector<int> cores, std::int64_t active_latency) {
  schedule::SsNode n;
  n.kind = schedule::SsKind::Compute;
  n.name = name;
  n.cores = std::move(cores);
  n.active_latency = active_latency;
  return n;
}

// Group 0: conv (Conv, model figures) then relu (Relu, estimated, 2 pJ per core), both on cores 0
// and 1; 300 and 100 scheduled cycles per iteration, 4 iterations; latency 1000, energy 500 pJ.
pipeline::GroupResult group0() {
  auto x = make_tensor("x", DType::i8, {4, 4}), w = make_tensor("w", DType::i8, {4, 4});
  auto y = make_tensor("y", DType::i8, {4, 4}), z = make_tensor("z", DType::i8, {4, 4});
  pipeline::GroupResult g;
  g.index = 0;
  g.tiled.workload = Workload({make_in_edge("X", x), make_in_edge("W", w),
                               make_computation("conv", "Conv", {x, w}, {y}, {dims(3, {0, 2}), dims(3, {2, 1}), dims(3, {0, 1})}),
                               make_computation("relu", "Relu", {y}, {z}, {dims(2, {0, 1}), dims(2, {0, 1})}),
                               make_out_edge("Z", z)});
  g.costs["conv"] = {entry(0, 100, 50, false), entry(1, 100, 50, false)};
  g.costs["relu"] = {entry(0, 10, 2, true), entry(1, 10, 2, true)};
  g.schedule.nodes = {compute("conv", {0, 1}, 300), compute("relu", {0, 1}, 100)};
  g.schedule.nodes.push_back(schedule::SsNode{.kind = schedule::SsKind::Transfer, .name = "t"});
  g.schedule.iterations = 4;
  g.allocation.total_latency = 1000;
  g.energy.compute = (50 + 50 + 2 + 2) * 4;  // 416, as pipeline::group_energy sums it
  g.energy.transfer = 84;
  return g;
}

// Group 1: gemm (Gemm) estimated on cores 2 and 3, but scheduled on core 2 alone (200 cycles),
// and act (Relu, model figures) on core 2 (600 cycles); 1 iteration; latency 3000, energy 1500.
pipeline::GroupResult group1() {
  auto a = make_tensor("a", DType::i8, {4, 4}), b = make_tensor("b", DType::i8, {4, 4});
  auto c = make_tensor("c", DType::i8, {4, 4}), d = make_tensor("d", DType::i8, {4, 4});
  pipeline::GroupResult g;
  g.index = 1;
  g.tiled.workload = Workload({make_in_edge("A", a), make_in_edge("B", b),
                               make_computation("gemm", "Gemm", {a, b}, {c}, {dims(3, {0, 2}), dims(3, {2, 1}), dims(3, {0, 1})}),
                               make_computation("act", "Relu", {c}, {d}, {dims(2, {0, 1}), dims(2, {0, 1})}),
                               make_out_edge("D", d)});
  g.costs["gemm"] = {entry(2, 40, 0, true), entry(3, 40, 0, true)};
  g.costs["act"] = {entry(2, 600, 900, false)};
  g.schedule.nodes = {compute("gemm", {2}, 200), compute("act", {2}, 600)};
  g.schedule.iterations = 1;
  g.allocation.total_latency = 3000;
  g.energy.compute = 1000;
  g.energy.transfer = 500;
  return g;
}

// The run adds a 500-cycle conversion on the DMA, in no group: 4500 cycles, 2000 pJ.
pipeline::RunResult run() {
  pipeline::RunResult r;
  r.groups = {group0(), group1()};
  r.total_latency = 1000 + 3000 + 500;
  r.total_energy = 500 + 1500;
  return r;
}

}  // namespace

TEST(CostFallbacks, GroupSharesAreOfItsScheduledCyclesAndEnergy) {
  const auto f = report::cost_fallbacks(group0());
  EXPECT_EQ(f.entries, 4u);
  EXPECT_EQ(f.scheduled_entries, 4u);
  EXPECT_EQ(f.count(), 2u);
  EXPECT_EQ(f.scheduled(), 2u);
  EXPECT_DOUBLE_EQ(f.latency_share, 100.0 / (300 + 100));  // relu's cycles of the iteration's compute cycles
  EXPECT_DOUBLE_EQ(f.estimated_energy, (2 + 2) * 4.0);     // both relu pairs, every iteration
  EXPECT_DOUBLE_EQ(f.energy_share, 16.0 / 500);
  EXPECT_EQ(f.fallbacks[0].reason, "one-input operator on a two-input array");
  EXPECT_EQ(f.fallbacks[0].detail, "KeyError: I2");
  EXPECT_EQ(f.fallbacks[0].op_type, "Relu");
}

TEST(CostFallbacks, AnEstimateTheScheduleDoesNotUseCountsInTheTableOnly) {
  const auto f = report::cost_fallbacks(group1());
  EXPECT_EQ(f.entries, 3u);
  EXPECT_EQ(f.scheduled_entries, 2u);  // gemm on core 3 is costed but not scheduled
  EXPECT_EQ(f.count(), 2u);
  EXPECT_EQ(f.scheduled(), 1u);
  EXPECT_TRUE(f.fallbacks[0].scheduled);
  EXPECT_FALSE(f.fallbacks[1].scheduled);
  EXPECT_DOUBLE_EQ(f.latency_share, 200.0 / 800);
  EXPECT_DOUBLE_EQ(f.energy_share, 0.0);
}

TEST(CostFallbacks, RunSharesWeighTheGroupsByTheirLatency) {
  const auto f = report::cost_fallbacks(run());
  EXPECT_EQ(f.entries, 7u);
  EXPECT_EQ(f.scheduled_entries, 6u);
  EXPECT_EQ(f.count(), 4u);
  EXPECT_EQ(f.scheduled(), 3u);
  // (1/4 x 1000 + 1/4 x 3000) / 4500: the DMA conversion's cycles rest on no estimate.
  EXPECT_DOUBLE_EQ(f.latency_share, 1000.0 / 4500);
  EXPECT_DOUBLE_EQ(f.energy_share, 16.0 / 2000);
  EXPECT_DOUBLE_EQ(report::share_percent(f.latency_share), 22.22);
  EXPECT_DOUBLE_EQ(report::share_percent(f.energy_share), 0.8);
  EXPECT_EQ(report::fallback_note(f),
            "4 of 7 (node, core) costs are ideal-cycle estimates, not per-core model figures (3 used by the schedule), "
            "carrying 22.22 % of the latency and 0.8 % of the energy");
}

TEST(CostFallbacks, NoEstimateNoNoteAndZeroShares) {
  auto r = run();
  for (auto& g : r.groups)
    for (auto& [node, entries] : g.costs)
      for (auto& e : entries) e.backend = "zigzag";
  const auto f = report::cost_fallbacks(r);
  EXPECT_EQ(f.count(), 0u);
  EXPECT_EQ(f.latency_share, 0.0);
  EXPECT_EQ(f.energy_share, 0.0);
  EXPECT_EQ(report::fallback_note(f), "");
  EXPECT_EQ(report::fallback_warning(f), "");
  EXPECT_FALSE(report::first_mac_estimate(f));
}

TEST(CostFallbacks, StrictNamesTheFirstMacNodeEstimate) {
  // relu's estimates come first but a Relu does no MAC work; gemm on core 2 is the first that does.
  const auto first = report::first_mac_estimate(report::cost_fallbacks(run()));
  ASSERT_TRUE(first);
  EXPECT_EQ(first->group, 1);
  EXPECT_EQ(first->node, "gemm");
  EXPECT_EQ(first->core_id, 2);
  EXPECT_EQ(report::strict_message(*first),
            "--strict: group 1 node 'gemm' (Gemm) on core 2 would be an ideal-cycle estimate, not a per-core model "
            "figure: one-input operator on a two-input array [KeyError: I2]");
}

// The cast hint: an estimate for a node with an f32 tensor, for want of room for its elements,
// gets "try --cast"; an int8 node with the same reason, or an f32 node estimated for another
// reason, does not.
TEST(CostFallbacks, AnFp32NodeOnNarrowHardwareIsToldToTryCast) {
  const std::string narrow =
      "no loop ordering fits: memory 'rf_2B' holds 16 bits, less than one 32-bit element of the output (the hardware "
      "is sized for narrower types: try --cast)";
  auto one_group = [&](DType type, const std::string& reason) {
    auto x = make_tensor("x", type, {4, 4}), w = make_tensor("w", type, {4, 4}), y = make_tensor("y", type, {4, 4});
    pipeline::GroupResult g;
    g.tiled.workload = Workload({make_in_edge("X", x), make_in_edge("W", w),
                                 make_computation("mm", "MatMul", {x, w}, {y}, {dims(3, {0, 2}), dims(3, {2, 1}), dims(3, {0, 1})}),
                                 make_out_edge("Y", y)});
    auto e = entry(0, 10, 2, true);
    e.reason = reason;
    g.costs["mm"] = {e};
    g.schedule.nodes = {compute("mm", {0}, 10)};
    g.schedule.iterations = 1;
    g.allocation.total_latency = 10;
    g.energy.compute = 2;
    return report::cost_fallbacks(g);
  };
  const auto fp32 = one_group(DType::f32, narrow);
  EXPECT_EQ(report::cast_hint(fp32),
            "; the model computes in fp32 and the hardware is sized for narrower types: try --cast bf16 (or int8), as a "
            "deployment compiler casts it");
  EXPECT_NE(report::fallback_note(fp32).find("% of the energy; the model computes in fp32"), std::string::npos);
  EXPECT_NE(report::fallback_warning(fp32, 3, "summary.yaml").find("casts it; see summary.yaml:"), std::string::npos);
  EXPECT_EQ(report::cast_hint(one_group(DType::i8, narrow)), "");
  EXPECT_EQ(report::cast_hint(one_group(DType::bf16, narrow)), "");  // already narrow: a cast to bf16 changes nothing
  EXPECT_EQ(report::cast_hint(one_group(DType::f32, "one-input operator on a two-input array")), "");
}
