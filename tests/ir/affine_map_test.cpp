// Affine maps (ir/affine_map.hpp) against hand-computed values.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/affine_map.hpp>

using stream::AffineExpr;
using stream::AffineMap;
using stream::Interval;

namespace {
AffineExpr d(int i) { return AffineExpr::dim(i); }
}  // namespace

TEST(AffineMap, ComposesLikeFunctionComposition) {
  // outer(a, b) = (b, 2a + 1); inner(x, y, z) = (x + z, y)
  AffineMap outer(2, {d(1), d(0) * 2 + 1});
  AffineMap inner(3, {d(0) + d(2), d(1)});
  auto c = outer.compose(inner);
  EXPECT_EQ(c.num_dims(), 3);
  const std::vector<std::int64_t> p{1, 2, 3};
  EXPECT_EQ(c.eval(p), (std::vector<std::int64_t>{2, 9}));
  EXPECT_EQ(c.eval(p), outer.eval(inner.eval(p)));
  EXPECT_THROW((void)inner.compose(inner), stream::Error);  // 2 results cannot feed 3 dims
}

TEST(AffineMap, TransposeComposedTwiceIsIdentity) {
  const std::vector<int> perm{1, 0};
  auto t = AffineMap::of_dims(2, perm);
  EXPECT_EQ(t.compose(t).simplified(), AffineMap::identity(2));
  EXPECT_EQ(t.str(), "(d0, d1) -> (d1, d0)");
}

TEST(AffineMap, RangesPerResult) {
  AffineMap m(3, {d(0), d(1) + d(2) - 1});
  const std::vector<std::int64_t> box{2, 32, 3};
  auto r = m.ranges(box);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (Interval{0, 1}));
  EXPECT_EQ(r[1], (Interval{-1, 32}));
}

TEST(AffineMap, RejectsResultsBeyondItsDims) { EXPECT_THROW(AffineMap(2, {d(2)}), stream::Error); }
