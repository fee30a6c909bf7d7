// The reference's rounding rules (stream/numeric/rounding.hpp). Expected values are Python's:
// round(0.5) == 0, round(1.5) == 2, round(2.5) == 2, round(-0.5) == -0, round(-1.5) == -2,
// round(-2.5) == -2; -7.0 // 2.0 == -4.0, 7.0 // 2.0 == 3.0. std::round would give 1, 2, 3, -1,
// -2, -3 for the same ties, which is what these tests tell apart.
#include <gtest/gtest.h>

#include <cmath>

#include <stream/numeric/rounding.hpp>

using namespace stream::numeric;

TEST(Rounding, HalfWayCasesGoToTheEvenNeighbour) {
  EXPECT_EQ(round_half_even(0.5), 0.0);
  EXPECT_EQ(round_half_even(1.5), 2.0);
  EXPECT_EQ(round_half_even(2.5), 2.0);
  EXPECT_EQ(round_half_even(3.5), 4.0);
  EXPECT_EQ(round_half_even(-0.5), 0.0);
  EXPECT_TRUE(std::signbit(round_half_even(-0.5)));  // Python's round(-0.5) is -0.0
  EXPECT_EQ(round_half_even(-1.5), -2.0);
  EXPECT_EQ(round_half_even(-2.5), -2.0);
}

TEST(Rounding, OffTiesRoundToTheNearest) {
  EXPECT_EQ(round_half_even(2.4999), 2.0);
  EXPECT_EQ(round_half_even(2.5001), 3.0);
  EXPECT_EQ(round_half_even(-2.5001), -3.0);
  EXPECT_EQ(round_half_even(7.0), 7.0);
}

TEST(Rounding, IntegerFormMatchesPythonIntOfRound) {
  EXPECT_EQ(round_half_even_int(0.5), 0);
  EXPECT_EQ(round_half_even_int(1.5), 2);
  EXPECT_EQ(round_half_even_int(2.5), 2);
  EXPECT_EQ(round_half_even_int(-2.5), -2);
  EXPECT_EQ(round_half_even_int(1e15 + 0.5), 1000000000000000);  // even neighbour of a large tie
}

TEST(Rounding, FloorDivisionRoundsTowardMinusInfinity) {
  EXPECT_EQ(floor_div(7.0, 2.0), 3.0);
  EXPECT_EQ(floor_div(-7.0, 2.0), -4.0);  // truncation would give -3
  EXPECT_EQ(floor_div(6.0, 3.0), 2.0);
  EXPECT_EQ(floor_div(1.0, 3.0), 0.0);
}
