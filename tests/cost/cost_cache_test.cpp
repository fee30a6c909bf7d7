// The cost table's shared cache (cost/cost_cache.hpp): cores classed by how they perform and by
// the backend that costs them, entries found by (key, class), and the bound past which it starts
// over. That a shared cache changes no result file is tested on whole runs (tests/pipeline/run_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include <stream/cost/cost_cache.hpp>

#include "bundled_hardware.hpp"

using namespace stream;

TEST(CostCache, ClassesCoresByPerformanceAndBackend) {
  const auto& tpu = test::bundled_accelerator("tpu_like_quad_core.yaml");
  cost::CostCache cache;
  const int c0 = cache.performance_class(tpu.core(0), "");
  EXPECT_EQ(cache.performance_class(tpu.core(1), ""), c0);  // the four compute cores are identical
  EXPECT_NE(cache.performance_class(tpu.core(1), "aie"), c0);
  auto bigger = tpu.core(0);
  bigger.memories.back().size *= 2;
  EXPECT_NE(cache.performance_class(bigger, ""), c0);
  EXPECT_EQ(cache.performance_class(tpu.core(0), ""), c0);
}

TEST(CostCache, FindsAnEntryByKeyAndClassOnly) {
  cost::CostCache cache;
  cost::CostEntry e;
  e.latency_total = 42;
  cache.add({"Conv|8,8", 0}, e);
  ASSERT_NE(cache.find({"Conv|8,8", 0}), nullptr);
  EXPECT_EQ(cache.find({"Conv|8,8", 0})->latency_total, 42);
  EXPECT_EQ(cache.find({"Conv|8,8", 1}), nullptr);  // the same tile on a core that performs otherwise
  EXPECT_EQ(cache.find({"Conv|8,4", 0}), nullptr);
}

TEST(CostCache, StartsOverOnlyPastItsBound) {
  cost::CostCache cache;
  for (std::size_t i = 0; i < cost::CostCache::kMaxEntries; ++i) cache.add({std::to_string(i), 0}, {});
  cache.trim();
  EXPECT_EQ(cache.size(), cost::CostCache::kMaxEntries);  // at the bound: kept
  cache.add({"one more", 0}, {});
  cache.trim();
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.find({"0", 0}), nullptr);
}
