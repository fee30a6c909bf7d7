// Affine expressions (ir/affine_expr.hpp) against hand-computed values.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/affine_expr.hpp>

using stream::AffineExpr;
using stream::Interval;

namespace {
AffineExpr d(int i) { return AffineExpr::dim(i); }
}  // namespace

TEST(AffineExpr, PrintsLikeTheReference) {
  // spec §1.3: the conv input index 1*oy + fy - 1 and its stride-2 form.
  EXPECT_EQ((d(2) + d(4) - 1).str(), "((d2 + d4) + -1)");
  EXPECT_EQ((d(2) * 2 + d(4) - 3).str(), "(((d2 * 2) + d4) + -3)");
  EXPECT_EQ((AffineExpr::constant(3) + d(0)).str(), "(d0 + 3)");  // constant moves right
  EXPECT_EQ(((d(0) + 1) + 2).str(), "(d0 + 3)");                 // (x + c1) + c2 folds
  EXPECT_EQ(((d(0) + d(1)) * 2).str(), "((d0 * 2) + (d1 * 2))");  // distribution
  EXPECT_EQ((d(1) * 1).str(), "d1");
}

TEST(AffineExpr, EvaluatesFloorDivAndModLikeMath) {
  const std::vector<std::int64_t> p{-7, 5};
  EXPECT_EQ(d(0).floordiv(2).eval(p), -4);  // floor(-3.5)
  EXPECT_EQ(d(0).mod(3).eval(p), 2);        // -7 = -3*3 + 2
  EXPECT_EQ((d(0) * 3 + d(1)).eval(p), -16);
}

TEST(AffineExpr, LinearFormAndTrivialDivisions) {
  auto f = (d(0) * 4 + d(2) * -1 + 5).linear();
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->coeffs, (std::vector<std::int64_t>{4, 0, -1}));
  EXPECT_EQ(f->constant, 5);
  // (4*d0 + 8) floordiv 4 is linear: d0 + 2.
  auto g = (d(0) * 4 + 8).floordiv(4).linear();
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->coeffs, (std::vector<std::int64_t>{1}));
  EXPECT_EQ(g->constant, 2);
  EXPECT_FALSE(d(0).floordiv(4).linear().has_value());
}

TEST(AffineExpr, SimplifiesDivisionOfMultiples) {
  // (4*d0 + d1) floordiv 4 == d0 + d1 floordiv 4; (4*d0 + 6) mod 4 == 2.
  auto s = (d(0) * 4 + d(1)).floordiv(4).simplified();
  EXPECT_EQ(s.str(), "(d0 + (d1 floordiv 4))");
  EXPECT_EQ((d(0) * 4 + 6).mod(4).simplified().str(), "2");
  // Simplification never changes values.
  auto e = (d(0) * 6 + d(1) * 3 + 7).floordiv(3);
  for (std::int64_t a = 0; a < 4; ++a)
    for (std::int64_t b = 0; b < 5; ++b) {
      std::vector<std::int64_t> p{a, b};
      EXPECT_EQ(e.simplified().eval(p), e.eval(p));
    }
}

TEST(AffineExpr, ExactRanges) {
  const std::vector<std::int64_t> box{16, 3};
  // Stride-2 window with pad 1: 2*oy + fy - 1 over oy < 16, fy < 3.
  EXPECT_EQ((d(0) * 2 + d(1) - 1).range(box), (Interval{-1, 31}));
  EXPECT_EQ((d(0) * -1 + 5).range(box), (Interval{-10, 5}));
  EXPECT_EQ(d(0).floordiv(4).range(box), (Interval{0, 3}));
  // 2*d0 mod 4 only takes 0 and 2: the exact maximum is 2, not 3.
  EXPECT_EQ((d(0) * 2).mod(4).range(box), (Interval{0, 2}));
  EXPECT_EQ(d(1).mod(8).range(box), (Interval{0, 2}));
  EXPECT_THROW((void)d(2).range(box), stream::Error);
}
