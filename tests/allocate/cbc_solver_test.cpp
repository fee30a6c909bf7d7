// The CBC session that keeps one model loaded across the lexicographic levels, against hand-derived
// optima and against re-solving a growing copy of the model per level (the interface's default).
#include <gtest/gtest.h>

#include <stream/allocate/cbc_solver.hpp>

using namespace stream;
using namespace stream::allocate;

namespace {

// Minimum vertex cover of a path of n vertices: rows x_i + x_{i+1} >= 1. Its optimum is
// floor(n / 2) (the odd vertices cover every edge; a cover needs one end of each of the n/2
// disjoint edges (0,1), (2,3), ...), and the odd vertices leave x_0 = 0 at that optimum.
struct PathCover {
  LinearModel model;
  std::vector<Var> x;
  explicit PathCover(int n) {
    for (int i = 0; i < n; ++i) x.push_back(model.add_binary("x" + std::to_string(i)));
    for (int i = 0; i + 1 < n; ++i)
      model.add_ge(LinExpr(x[static_cast<std::size_t>(i)]) + LinExpr(x[static_cast<std::size_t>(i) + 1]), 1.0,
                   "edge" + std::to_string(i), "cover");
  }
  [[nodiscard]] std::vector<ObjectiveLevel> levels() const {
    LinExpr size;
    for (Var v : x) size += LinExpr(v);
    return {{"size", size}, {"first", LinExpr(x.front())}, {"last_negated", -1.0 * LinExpr(x.back())}};
  }
};

// CBC's solve() with the interface's default session: the model is re-loaded at every level.
class ReloadingCbc final : public MilpSolver {
 public:
  [[nodiscard]] std::string name() const override { return "cbc-reloading"; }
  [[nodiscard]] SolveResult solve(const LinearModel& m, const LinExpr& o, const SolveOptions& s) const override {
    return cbc_.solve(m, o, s);
  }

 private:
  CbcSolver cbc_;
};

}  // namespace

TEST(CbcSession, LockedLevelsOnASmallAndALargeModel) {
  // n = 9 (8 rows: plain branch and bound) and n = 601 (600 rows: the large-model path). Levels:
  // cover size floor(n/2); then x_0 = 0 (the odd vertices); then -x_{n-1}: with n odd and size
  // floor(n/2), a cover without x_0 must take x_1, x_3, ..., x_{n-2}, so x_{n-1} = 0 (level value 0).
  for (int n : {9, 601}) {
    const PathCover p(n);
    const auto r = solve_lexicographic(p.model, p.levels(), CbcSolver(), {});
    ASSERT_EQ(r.status, SolveStatus::Optimal) << n;
    EXPECT_EQ(r.level_objectives, (std::vector<double>{static_cast<double>(n / 2), 0, 0})) << n;
    for (int i = 0; i < n; ++i) EXPECT_EQ(r.values[static_cast<std::size_t>(i)], i % 2) << n << " x" << i;
  }
}

TEST(CbcSession, SameOptimaAsReloadingTheModelPerLevel) {
  // An even path (n = 40 and 500) has several optimal covers: the session and the per-level
  // reload must still agree on every level's optimum.
  for (int n : {40, 500}) {
    const PathCover p(n);
    const auto kept = solve_lexicographic(p.model, p.levels(), CbcSolver(), {});
    const auto reloaded = solve_lexicographic(p.model, p.levels(), ReloadingCbc(), {});
    ASSERT_EQ(kept.status, SolveStatus::Optimal);
    ASSERT_EQ(reloaded.status, SolveStatus::Optimal);
    EXPECT_EQ(kept.level_objectives, reloaded.level_objectives) << n;
    EXPECT_EQ(kept.level_objectives.front(), n / 2) << n;
  }
}

TEST(CbcSession, InfeasibleModelStopsAtTheFirstLevel) {
  LinearModel m;
  Var x = m.add_var("x", VarKind::Integer, 0, 3);
  m.add_ge(x, 4.0, "too_big", "test");
  const auto r = solve_lexicographic(m, {{"a", LinExpr(x)}, {"b", -1.0 * LinExpr(x)}}, CbcSolver(), {});
  EXPECT_EQ(r.status, SolveStatus::Infeasible);
  EXPECT_EQ(r.levels.size(), 1u);
  EXPECT_TRUE(r.values.empty());
}

TEST(CbcSolver, AFractionalRelaxationIsSearchedToTheIntegerOptimum) {
  // Vertex cover of a 5-cycle: the relaxation's optimum is 2.5 (every x = 1/2), not integral, so
  // it must not stand in for the MILP; the integer optimum is 3 (ceil(5 / 2)).
  LinearModel m;
  std::vector<Var> x;
  for (int i = 0; i < 5; ++i) x.push_back(m.add_binary("x" + std::to_string(i)));
  LinExpr size;
  for (int i = 0; i < 5; ++i) {
    m.add_ge(LinExpr(x[static_cast<std::size_t>(i)]) + LinExpr(x[static_cast<std::size_t>((i + 1) % 5)]), 1.0,
             "edge" + std::to_string(i), "cover");
    size += LinExpr(x[static_cast<std::size_t>(i)]);
  }
  const auto r = CbcSolver().solve(m, size, {});
  ASSERT_EQ(r.status, SolveStatus::Optimal);
  EXPECT_EQ(r.objective, 3.0);
  for (int i = 0; i < 5; ++i) {
    const double a = r.values[static_cast<std::size_t>(i)], b = r.values[static_cast<std::size_t>((i + 1) % 5)];
    EXPECT_TRUE(a == 0.0 || a == 1.0) << a;
    EXPECT_GE(a + b, 1.0) << "edge " << i;
  }
}

TEST(CbcSolver, AnIntegralRelaxationIsTheOptimum) {
  // A path's cover matrix is totally unimodular, so the relaxation is integral: the optimum
  // floor(9 / 2) = 4 without a search, a valid cover.
  const PathCover p(9);
  const auto r = CbcSolver().solve(p.model, p.levels().front().expr, {});
  ASSERT_EQ(r.status, SolveStatus::Optimal);
  EXPECT_EQ(r.objective, 4.0);
  EXPECT_EQ(r.nodes, 0);
  for (int i = 0; i + 1 < 9; ++i) EXPECT_GE(r.values[static_cast<std::size_t>(i)] + r.values[static_cast<std::size_t>(i) + 1], 1.0);
}
