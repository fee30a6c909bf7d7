// The temporal loop factors (cost/loop_factors.hpp): prime factorisation against the figures the
// specification quotes from ZigZag's own tests, and the distinct orderings of a multiset.
#include <gtest/gtest.h>

#include <set>

#include "stream/cost/loop_factors.hpp"

namespace {

using namespace stream::cost;

std::vector<std::pair<int, std::int64_t>> as_pairs(const std::vector<TemporalLoop>& v) {
  std::vector<std::pair<int, std::int64_t>> out;
  for (const auto& l : v) out.emplace_back(l.dim, l.size);
  return out;
}

TEST(LoopPrimeFactors, SpecExamplesFromTpuResnet18) {
  // Layer 2: K2 C2 OY56 OX56 FY3 FX3 (dims numbered in layer order 0..5).
  const std::vector<TemporalLoop> l2 = {{0, 2}, {1, 2}, {2, 56}, {3, 56}, {4, 3}, {5, 3}};
  const auto f6 = loop_prime_factors(l2, 6);
  EXPECT_EQ(as_pairs(f6), (std::vector<std::pair<int, std::int64_t>>{{0, 2}, {1, 2}, {2, 56}, {3, 56}, {4, 3}, {5, 3}}));
  EXPECT_EQ(ordering_count(f6), 720u);
  const auto f8 = loop_prime_factors(l2, 8);
  EXPECT_EQ(as_pairs(f8),
            (std::vector<std::pair<int, std::int64_t>>{{0, 2}, {1, 2}, {2, 7}, {2, 8}, {3, 7}, {3, 8}, {4, 3}, {5, 3}}));
  EXPECT_EQ(ordering_count(f8), 40320u);
  // Layer 0: K2 OY112 OX112 FY7 FX7: OY and OX tie at every step, OY (first) wins.
  const std::vector<TemporalLoop> l0 = {{0, 2}, {1, 112}, {2, 112}, {3, 7}, {4, 7}};
  EXPECT_EQ(as_pairs(loop_prime_factors(l0, 6)),
            (std::vector<std::pair<int, std::int64_t>>{{0, 2}, {1, 112}, {2, 7}, {2, 16}, {3, 7}, {4, 7}}));
  const auto l0_8 = loop_prime_factors(l0, 8);
  EXPECT_EQ(ordering_count(l0_8), 20160u);  // 8!/2!
}

TEST(LoopPrimeFactors, LimitIsRaisedToTheNumberOfDims) {
  const std::vector<TemporalLoop> loops = {{0, 4}, {1, 4}, {2, 4}, {3, 4}};
  const auto f = loop_prime_factors(loops, 2);  // raised to 4: each dim keeps one factor
  EXPECT_EQ(as_pairs(f), (std::vector<std::pair<int, std::int64_t>>{{0, 4}, {1, 4}, {2, 4}, {3, 4}}));
  EXPECT_EQ(as_pairs(loop_prime_factors({}, 6)), (std::vector<std::pair<int, std::int64_t>>{{0, 1}}));
}

TEST(MultisetPermutations, VisitsEveryDistinctOrderingOnce) {
  const std::vector<TemporalLoop> lpfs = {{0, 2}, {0, 2}, {1, 3}, {2, 5}};
  MultisetPermutations p(lpfs);
  std::set<std::vector<std::pair<int, std::int64_t>>> seen;
  std::size_t n = 0;
  do {
    seen.insert(as_pairs(p.current()));
    ++n;
  } while (p.next());
  EXPECT_EQ(n, 12u);  // 4!/2!
  EXPECT_EQ(seen.size(), 12u);
  EXPECT_EQ(ordering_count(lpfs), 12u);
}

}  // namespace
