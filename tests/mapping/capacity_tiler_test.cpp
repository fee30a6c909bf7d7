// The capacity tiler's incremental search (mapping/capacity_tiler.hpp) against the greedy it
// replaces, written here the direct way: every trial copies the tile map and re-scores every core
// from scratch. The incremental step must pick the same dim at every step, so every resident tile
// and both flags are equal on every problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "stream/mapping/capacity_tiler.hpp"

using namespace stream::mapping;

namespace {

std::vector<std::int64_t> divisors_descending(std::int64_t n) {
  std::vector<std::int64_t> out;
  for (std::int64_t d = n; d >= 1; --d)
    if (n % d == 0) out.push_back(d);
  return out;
}

// The full re-evaluation greedy (the pre-incremental capacity_refine).
CapacityResult full_greedy(const CapacityProblem& p) {
  std::map<int, std::int64_t> resident;
  for (std::size_t j = 0; j < p.per_core.size(); ++j) resident[static_cast<int>(j)] = p.resident[j];
  auto usage = [&](const CapacityProblem::Core& core, const std::map<int, std::int64_t>& r) {
    double bits = 0.0;
    for (const auto& [t, b] : core.tensors) {
      double f = 1.0;
      for (const auto& accessors : p.axes[static_cast<std::size_t>(t)]) {
        double widest = 0.0;
        for (const auto& ds : accessors) {
          double share = 1.0;
          for (int g : ds) share *= static_cast<double>(r.at(g)) / static_cast<double>(p.per_core[static_cast<std::size_t>(g)]);
          widest = std::max(widest, share);
        }
        f *= widest;
      }
      bits += b * f;
    }
    return bits;
  };
  auto worst = [&](const std::map<int, std::int64_t>& r) {
    double w = -1e300;
    for (const auto& core : p.cores) w = std::max(w, usage(core, r) - core.budget);
    return w;
  };
  auto tiles = [&](const std::map<int, std::int64_t>& r) {
    double n = 1.0;
    for (const auto& [g, v] : r) n *= static_cast<double>(p.per_core[static_cast<std::size_t>(g)]) / static_cast<double>(v);
    return n;
  };
  CapacityResult out;
  out.fitted_at_start = worst(resident) <= 0;
  while (worst(resident) > 0) {
    int best_dim = -1;
    std::int64_t best_value = 0;
    double best_worst = 0.0;
    for (const auto& [g, cur] : resident) {
      std::int64_t next = 0;
      for (std::int64_t d : divisors_descending(p.per_core[static_cast<std::size_t>(g)]))
        if (d < cur) {
          next = d;
          break;
        }
      if (next == 0) continue;
      auto trial = resident;
      trial[g] = next;
      if (tiles(trial) > static_cast<double>(p.max_tiles)) continue;
      const double w = worst(trial);
      if (best_dim < 0 || w < best_worst) {
        best_dim = g;
        best_value = next;
        best_worst = w;
      }
    }
    if (best_dim < 0) {
      out.tile_cap_reached = true;
      break;
    }
    resident[best_dim] = best_value;
  }
  for (const auto& [g, v] : resident) out.resident.push_back(v);
  return out;
}

// A random problem shaped like a fused group's: dims of sizes with many divisors, tensors over a
// few dims with one to three accessors per axis, cores holding overlapping tensor lists with
// non-dyadic per-core bits (so rounding is not exact).
CapacityProblem random_problem(std::mt19937& rng) {
  const std::vector<std::int64_t> sizes = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 56, 64, 96, 128, 7, 9};
  auto pick = [&](int n) { return static_cast<int>(std::uniform_int_distribution<int>(0, n - 1)(rng)); };
  CapacityProblem p;
  const int dims = 2 + pick(14);
  for (int j = 0; j < dims; ++j) {
    p.per_core.push_back(sizes[static_cast<std::size_t>(pick(static_cast<int>(sizes.size())))]);
    const auto ds = divisors_descending(p.per_core.back());
    p.resident.push_back(ds[static_cast<std::size_t>(pick(std::min<int>(2, static_cast<int>(ds.size()))))]);
  }
  const int tensors = 1 + pick(30);
  for (int t = 0; t < tensors; ++t) {
    std::vector<std::vector<std::vector<int>>> axes(static_cast<std::size_t>(1 + pick(4)));
    for (auto& accessors : axes) {
      accessors.resize(static_cast<std::size_t>(1 + pick(3)));
      for (auto& acc : accessors) {
        for (int k = 0, n = pick(3); k < n; ++k) acc.push_back(pick(dims));
        std::sort(acc.begin(), acc.end());
        acc.erase(std::unique(acc.begin(), acc.end()), acc.end());
      }
    }
    p.axes.push_back(std::move(axes));
  }
  for (int c = 0, n = 1 + pick(6); c < n; ++c) {
    CapacityProblem::Core core;
    double total = 0;
    for (int t = 0; t < tensors; ++t)
      if (pick(3) > 0) {
        const double bits = std::uniform_real_distribution<double>(1.0, 1e6)(rng) / 3.0;
        core.tensors.emplace_back(t, bits);
        total += bits;
      }
    std::shuffle(core.tensors.begin(), core.tensors.end(), rng);
    core.budget = total * std::uniform_real_distribution<double>(0.0005, 1.2)(rng);
    p.cores.push_back(std::move(core));
  }
  p.max_tiles = std::vector<std::int64_t>{16, 64, 1024, 4096}[static_cast<std::size_t>(pick(4))];
  return p;
}

}  // namespace

TEST(CapacityTiler, IncrementalSearchEqualsTheFullGreedyOnRandomProblems) {
  std::mt19937 rng(20261201);
  int fitted = 0, capped = 0, refined = 0;
  for (int k = 0; k < 3000; ++k) {
    const CapacityProblem p = random_problem(rng);
    const CapacityResult want = full_greedy(p);
    const CapacityResult got = refine_capacity(p);
    ASSERT_EQ(got.resident, want.resident) << "problem " << k;
    ASSERT_EQ(got.fitted_at_start, want.fitted_at_start) << "problem " << k;
    ASSERT_EQ(got.tile_cap_reached, want.tile_cap_reached) << "problem " << k;
    fitted += want.fitted_at_start;
    capped += want.tile_cap_reached;
    refined += !want.fitted_at_start && !want.tile_cap_reached;
  }
  // The sample covers all three outcomes.
  EXPECT_GT(fitted, 50);
  EXPECT_GT(capped, 50);
  EXPECT_GT(refined, 50);
}

// One core of 100 bits, one 400-bit tensor over dims A (per-core 4) and B (per-core 2), one axis
// each. Step 1: A 4->2 or B 2->1 both halve it to 200 bits (overflow 100): the tie goes to the
// first dim, A. Step 2: A 2->1 or B 2->1 both give 100 bits (overflow 0): A again. Resident
// {A: 1, B: 2} fits. With a cap of 2 tiles step 2 is out of reach (4 tiles either way): the
// search stops at {A: 2, B: 2} with the core still over.
TEST(CapacityTiler, HandDerivedStepsTiesAndTheTileCap) {
  CapacityProblem p;
  p.per_core = {4, 2};
  p.resident = {4, 2};
  p.axes = {{{{0}}, {{1}}}};
  p.cores = {{100.0, {{0, 400.0}}}};
  const auto r = refine_capacity(p);
  EXPECT_EQ(r.resident, (std::vector<std::int64_t>{1, 2}));
  EXPECT_FALSE(r.fitted_at_start);
  EXPECT_FALSE(r.tile_cap_reached);

  p.max_tiles = 2;
  const auto capped = refine_capacity(p);
  EXPECT_EQ(capped.resident, (std::vector<std::int64_t>{2, 2}));
  EXPECT_TRUE(capped.tile_cap_reached);

  p.cores[0].budget = 400.0;  // fits as it is
  const auto fits = refine_capacity(p);
  EXPECT_TRUE(fits.fitted_at_start);
  EXPECT_EQ(fits.resident, (std::vector<std::int64_t>{4, 2}));
}

// The reference's rule (`--compat stream-1.13`): a step must lower the worst overflow strictly. Two
// cores each over by 300 bits (a 400-bit tensor, budget 100), each tensor indexed by its own dim
// (A, B: 4 per core): halving A leaves core 1 at 300, so does halving B; the reference stops at
// once with {4, 4}. Ours takes the tie's first dim and goes on: A 4->2 (worst 300), B 4->2 (100),
// A 2->1 (100), B 2->1 (0): {1, 1}.
TEST(CapacityTiler, StrictDescentStopsWhenNoStepLowersTheWorstCore) {
  CapacityProblem p;
  p.per_core = {4, 4};
  p.resident = {4, 4};
  p.axes = {{{{0}}}, {{{1}}}};
  p.cores = {{100.0, {{0, 400.0}}}, {100.0, {{1, 400.0}}}};
  const auto ours = refine_capacity(p);
  EXPECT_EQ(ours.resident, (std::vector<std::int64_t>{1, 1}));
  EXPECT_FALSE(ours.tile_cap_reached);
  p.strict_descent = true;
  const auto reference = refine_capacity(p);
  EXPECT_EQ(reference.resident, (std::vector<std::int64_t>{4, 4}));
  EXPECT_TRUE(reference.tile_cap_reached);
}
