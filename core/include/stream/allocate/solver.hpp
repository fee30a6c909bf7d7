// The MILP solver interface and the lexicographic solve built on it.
//
// A MilpSolver minimises one linear objective over a LinearModel and reports status, values and
// effort. solve_lexicographic() minimises a list of objectives in priority order: after each
// level it adds `objective <= optimum` (tolerance 0, like the reference's OR-Tools path) and
// moves on, so every backend gives the same optimum values. Another solver is added by
// implementing MilpSolver; make_solver() picks one by name ("cbc").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stream/allocate/linear_model.hpp"
#include "stream/export.hpp"

namespace stream::allocate {

enum class SolveStatus { Optimal, Infeasible, TimeLimit, Unbounded, Error };
[[nodiscard]] STREAM_API const char* name(SolveStatus s);  ///< "OPTIMAL", "INFEASIBLE", ...

struct SolveOptions {
  double time_limit_s = 0;  ///< <= 0: none
  int threads = 1;
  bool verbose = false;
};

struct SolveResult {
  SolveStatus status = SolveStatus::Error;
  std::vector<double> values;  ///< one per model variable (empty without a solution)
  double objective = 0;
  double best_bound = 0;
  double solve_time_s = 0;
  long long nodes = 0;
  long long iterations = 0;
};

struct ObjectiveLevel {
  std::string name;
  LinExpr expr;
};

struct LexicographicResult {
  SolveStatus status = SolveStatus::Error;
  std::vector<double> values;            ///< the final level's solution
  std::vector<SolveResult> levels;       ///< one per solved level (values cleared)
  std::vector<double> level_objectives;  ///< optimum of each solved level
  double total_time_s = 0;
};

/// One model kept loaded across the levels of a lexicographic solve: each level changes the
/// objective and adds the previous level's lock row instead of loading the model again.
class LevelSession {
 public:
  virtual ~LevelSession() = default;
  [[nodiscard]] virtual SolveResult solve(const LinExpr& objective) = 0;
  /// Adds the row `expr <= bound`.
  virtual void lock(const LinExpr& expr, double bound, const std::string& name) = 0;
};

class STREAM_API MilpSolver {
 public:
  virtual ~MilpSolver() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual SolveResult solve(const LinearModel& model, const LinExpr& objective,
                                          const SolveOptions& options) const = 0;
  /// A session over `model`; the default one calls solve() on a growing copy of the model.
  [[nodiscard]] virtual std::unique_ptr<LevelSession> open_session(LinearModel model, const SolveOptions& options) const;
  /// Loads what solving needs (a backend's libraries) ahead of the first solve, so that a caller
  /// can do it on another thread while it prepares the models; safe from any thread, and a
  /// failure (thrown) is met again by the first solve. The default has nothing to load.
  virtual void prepare() const {}
};

/// "cbc" is the only backend today; throws stream::Error for an unknown name.
[[nodiscard]] STREAM_API std::unique_ptr<MilpSolver> make_solver(const std::string& name = "cbc");

/// Solves level after level; stops at the first non-optimal level (its status is returned; the
/// last optimal values are kept when a later level only hits its time limit with a solution).
[[nodiscard]] STREAM_API LexicographicResult solve_lexicographic(LinearModel model, const std::vector<ObjectiveLevel>& levels,
                                                                 const MilpSolver& solver, const SolveOptions& options);

}  // namespace stream::allocate
