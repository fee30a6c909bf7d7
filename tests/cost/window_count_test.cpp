// distinct_window_indices (issue 13): the number of input positions a two-term window reads,
// against an enumeration of every (i, j) for small cases, and on the hostile extents that made
// the enumeration take minutes (a 2^31-wide axis) or a bad_alloc (a padding of 2^40).
#include <gtest/gtest.h>

#include <chrono>
#include <set>

#include "stream/cost/window_count.hpp"

using stream::cost::distinct_window_indices;

namespace {

std::int64_t enumerate(std::int64_t c1, std::int64_t n1, std::int64_t c2, std::int64_t n2, std::int64_t k,
                       std::int64_t extent) {
  std::set<std::int64_t> seen;
  for (std::int64_t i = 0; i < n1; ++i)
    for (std::int64_t j = 0; j < n2; ++j) {
      const auto x = c1 * i + c2 * j + k;
      if (x >= 0 && x < extent) seen.insert(x);
    }
  return static_cast<std::int64_t>(seen.size());
}

TEST(WindowCount, MatchesTheEnumerationOnEverySmallWindow) {
  int cases = 0;
  for (std::int64_t c1 : {-3, -1, 0, 1, 2, 3, 4, 6})
    for (std::int64_t c2 : {-2, 0, 1, 2, 3, 5})
      for (std::int64_t n1 : {1, 2, 3, 7})
        for (std::int64_t n2 : {1, 2, 4, 5})
          for (std::int64_t k : {-9, -2, 0, 3})
            for (std::int64_t extent : {1, 5, 12, 40}) {
              ASSERT_EQ(distinct_window_indices(c1, n1, c2, n2, k, extent), enumerate(c1, n1, c2, n2, k, extent))
                  << "c1 " << c1 << " n1 " << n1 << " c2 " << c2 << " n2 " << n2 << " k " << k << " extent " << extent;
              ++cases;
            }
  EXPECT_EQ(cases, 8 * 6 * 4 * 4 * 4 * 4);
}

TEST(WindowCount, HolesOfAStrideWiderThanTheKernel) {
  // stride 4 over 3 outputs, kernel 2: positions {0, 1, 4, 5, 8, 9}.
  EXPECT_EQ(distinct_window_indices(4, 3, 1, 2, 0, 100), 6);
}

TEST(WindowCount, HostileExtentsCostNothing) {
  const auto t0 = std::chrono::steady_clock::now();
  // A 3x3 conv over a 2^31-wide axis, pad 1: ox + fx - 1 covers every one of the 2^31 positions.
  const std::int64_t w = std::int64_t{1} << 31;
  EXPECT_EQ(distinct_window_indices(1, w, 1, 3, -1, w), w);
  // Pads of 2^40 on an 8-wide axis: 8 + 2^41 - 2 outputs, every input position read once.
  const std::int64_t p = std::int64_t{1} << 40;
  EXPECT_EQ(distinct_window_indices(1, 8 + 2 * p - 2, 1, 3, -p, 8), 8);
  // Stride 2^20 over 2^20 outputs with a 2^20 kernel of dilation 1: contiguous, 2^40 + 2^20 - 2^20.
  const std::int64_t m = std::int64_t{1} << 20;
  EXPECT_EQ(distinct_window_indices(m, m, 1, m, 0, std::int64_t{1} << 50), m * m);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(took, 5.0);  // closed form: microseconds (the enumeration ran minutes and 2 GB)
}

}  // namespace
