// numeric::uneven_split: a dim cut into balanced parts of at most a chunk, on sizes the chunk does
// and does not divide (figures by hand: parts = ceil(size / chunk), longest = ceil(size / parts)).
#include <gtest/gtest.h>

#include <stream/numeric/uneven_split.hpp>

using stream::numeric::ceil_div;
using stream::numeric::uneven_split;

TEST(UnevenSplit, ADividingChunkIsTheExactSplit) {
  const auto s = uneven_split(16, 4);
  EXPECT_EQ(s.parts, 4);
  EXPECT_EQ(s.longest, 4);
}

TEST(UnevenSplit, AChunkThatDoesNotDivideGivesBalancedPartsTheLastShorter) {
  const auto s = uneven_split(58, 4);  // 15 parts: 14 of 4 and the last of 2
  EXPECT_EQ(s.parts, 15);
  EXPECT_EQ(s.longest, 4);
  const auto t = uneven_split(58, 56);  // 2 parts of 29, not 56 + 2
  EXPECT_EQ(t.parts, 2);
  EXPECT_EQ(t.longest, 29);
  const auto u = uneven_split(122, 32);  // 4 parts: 31 + 31 + 31 + 29
  EXPECT_EQ(u.parts, 4);
  EXPECT_EQ(u.longest, 31);
}

TEST(UnevenSplit, AChunkAtLeastTheSizeIsOnePart) {
  EXPECT_EQ(uneven_split(7, 8).parts, 1);
  EXPECT_EQ(uneven_split(7, 8).longest, 7);
  EXPECT_EQ(uneven_split(1, 4).parts, 1);
  EXPECT_EQ(uneven_split(1, 4).longest, 1);
}

TEST(UnevenSplit, AChunkBelowOneCountsAsOne) {
  EXPECT_EQ(uneven_split(7, 0).parts, 7);
  EXPECT_EQ(uneven_split(7, 0).longest, 1);
}

TEST(UnevenSplit, CeilDivIsTheLongestShare) {
  EXPECT_EQ(ceil_div(58, 4), 15);
  EXPECT_EQ(ceil_div(122, 4), 31);
  EXPECT_EQ(ceil_div(7, 4), 2);
  EXPECT_EQ(ceil_div(1, 4), 1);
  EXPECT_EQ(ceil_div(16, 4), 4);
}
