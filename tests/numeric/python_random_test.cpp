// numeric/python_random.hpp against CPython 3.11: every expected value below was printed by
// `python3 -c "import random; r = random.Random(SEED); ..."`.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "stream/numeric/python_random.hpp"

using stream::numeric::PythonRandom;

namespace {

std::vector<int> shuffled(std::uint32_t seed, int n) {
  std::vector<int> x(static_cast<std::size_t>(n));
  std::iota(x.begin(), x.end(), 0);
  PythonRandom(seed).shuffle(x);
  return x;
}

}  // namespace

TEST(PythonRandom, GetrandbitsMatchesCPython) {
  PythonRandom r(42);  // [r.getrandbits(32) for _ in range(3)]
  EXPECT_EQ(r.getrandbits(32), 2746317213U);
  EXPECT_EQ(r.getrandbits(32), 478163327U);
  EXPECT_EQ(r.getrandbits(32), 107420369U);
}

TEST(PythonRandom, RandbelowMatchesRandrange) {
  PythonRandom r(42);  // [r.randrange(1000) for _ in range(5)]
  for (std::uint32_t expected : {654U, 114U, 25U, 759U, 281U}) EXPECT_EQ(r.randbelow(1000), expected);
}

TEST(PythonRandom, ShuffleMatchesCPython) {
  EXPECT_EQ(shuffled(42, 10), (std::vector<int>{7, 3, 2, 8, 5, 6, 9, 4, 0, 1}));
  EXPECT_EQ(shuffled(7, 50),
            (std::vector<int>{24, 35, 14, 31, 10, 48, 11, 16, 28, 29, 42, 38, 30, 8,  0,  46, 19,
                              12, 21, 43, 47, 22, 49, 7,  39, 18, 33, 1,  40, 17, 36, 15, 44, 26,
                              27, 5,  2,  13, 32, 45, 37, 23, 6,  34, 4,  3,  41, 25, 9,  20}));
}

TEST(PythonRandom, ShuffleOfZeroOrOneElementDrawsNothing) {
  std::vector<int> none, one{5};
  PythonRandom r(42);
  r.shuffle(none);
  r.shuffle(one);
  EXPECT_EQ(one, std::vector<int>{5});
  EXPECT_EQ(r.getrandbits(32), 2746317213U);  // still the first draw
}
