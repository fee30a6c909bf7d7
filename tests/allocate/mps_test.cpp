// The infeasible allocation model's MPS text, against a file written out by hand from the MPS
// format: what CBC's own reader (CoinMpsIO) needs to read it back as it was.
#include <gtest/gtest.h>

#include <stream/allocate/mps.hpp>

using namespace stream::allocate;

// Two columns, both integer (one MARKER pair around them), and one row of each kind. The FREE
// keyword: CoinMpsIO misread the first BOUNDS line when guessing the format. `total` has no
// upper bound, so it gets PL: without a bound CoinMpsIO reads an integer column as a binary, and
// the allocation MILP's `total` >= 2 then made every model infeasible. The binary gets UP 1.
TEST(Mps, EveryRowKindBoundAndMarkerAsTheFormatSays) {
  LinearModel m;
  const Var total = m.add_var("total", VarKind::Integer, 0, kInf);
  const Var pick = m.add_binary("pick");
  m.add_ge(LinExpr(total), LinExpr(2.0) + LinExpr(pick), "at_least", "test");  // total - pick >= 2
  m.add_eq(LinExpr(pick), LinExpr(1.0), "one", "test");                        // pick = 1
  m.add_range(LinExpr(total) + LinExpr(pick), 1, 5, "span", "range");           // 1 <= total + pick <= 5
  const std::string expected =
      "NAME tetra FREE\n"
      "ROWS\n N obj\n G r0\n E r1\n L r2\n"
      "COLUMNS\n"
      " M0 'MARKER' 'INTORG'\n"
      " c0 obj 1\n c0 r0 1\n c0 r2 1\n"
      " c1 obj 0\n c1 r0 -1\n c1 r1 1\n c1 r2 1\n"
      " Mend 'MARKER' 'INTEND'\n"
      "RHS\n rhs r0 2\n rhs r1 1\n rhs r2 5\n"
      "RANGES\n rng r2 4\n"
      "BOUNDS\n PL bnd c0\n UP bnd c1 1\n"
      "ENDATA\n"
      "* rows:\n*  r0 test at_least\n*  r1 test one\n*  r2 range span\n"
      "* columns:\n*  c0 total\n*  c1 pick\n";
  EXPECT_EQ(mps_text(m, LinExpr(total)), expected);
}
