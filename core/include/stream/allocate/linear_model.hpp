// A mixed-integer linear program as plain data, independent of any solver.
//
// Variables have a kind (binary, integer, continuous), bounds and a name; constraints are sparse
// rows `lo <= sum(coef * var) <= hi`. Objectives are kept apart from the model (a LinExpr each) so
// that the lexicographic solve can minimise them one after another on the same rows. Building a
// model never talks to a solver; a MilpSolver (solver.hpp) turns it into whatever the solver
// wants. Names are for reports and .mps files only.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "stream/export.hpp"

namespace stream::allocate {

enum class VarKind { Binary, Integer, Continuous };

inline constexpr double kInf = std::numeric_limits<double>::infinity();

struct Var {
  int index = -1;
};

/// A linear expression: sum of coef * var plus a constant. Terms may repeat a variable; the model
/// merges them when a row is added.
struct STREAM_API LinExpr {
  std::vector<std::pair<int, double>> terms;
  double constant = 0;

  LinExpr() = default;
  LinExpr(double c) : constant(c) {}  // NOLINT: constants read naturally in constraints
  LinExpr(Var v) : terms{{v.index, 1.0}} {}  // NOLINT
  LinExpr& add(Var v, double coef) {
    if (coef != 0) terms.emplace_back(v.index, coef);
    return *this;
  }
  LinExpr& operator+=(const LinExpr& o);
  LinExpr& operator-=(const LinExpr& o);
  LinExpr& operator*=(double k);
};

STREAM_API LinExpr operator+(LinExpr a, const LinExpr& b);
STREAM_API LinExpr operator-(LinExpr a, const LinExpr& b);
STREAM_API LinExpr operator*(double k, LinExpr a);

struct VarInfo {
  std::string name;
  VarKind kind = VarKind::Continuous;
  double lo = 0;
  double hi = kInf;
};

struct Row {
  std::string name;
  std::string family;  ///< constraint family ("placement", "link_contention", ...) for reports
  std::vector<std::pair<int, double>> terms;  ///< merged, ascending variable index
  double lo = -kInf;
  double hi = kInf;
};

class STREAM_API LinearModel {
 public:
  Var add_var(std::string name, VarKind kind, double lo = 0, double hi = kInf);
  Var add_binary(std::string name) { return add_var(std::move(name), VarKind::Binary, 0, 1); }
  /// Adds lo <= expr <= hi (the expression's constant is moved to the bounds).
  void add_range(const LinExpr& expr, double lo, double hi, std::string name, std::string family);
  void add_le(const LinExpr& lhs, const LinExpr& rhs, std::string name, std::string family);
  void add_ge(const LinExpr& lhs, const LinExpr& rhs, std::string name, std::string family);
  void add_eq(const LinExpr& lhs, const LinExpr& rhs, std::string name, std::string family);

  [[nodiscard]] const std::vector<VarInfo>& vars() const { return vars_; }
  [[nodiscard]] const std::vector<Row>& rows() const { return rows_; }
  [[nodiscard]] std::size_t num_vars() const { return vars_.size(); }
  [[nodiscard]] std::size_t num_rows() const { return rows_.size(); }
  [[nodiscard]] std::size_t num_nonzeros() const;
  [[nodiscard]] std::size_t count(VarKind kind) const;
  /// Value of an expression under a solution vector.
  [[nodiscard]] static double value(const LinExpr& e, const std::vector<double>& x);

 private:
  std::vector<VarInfo> vars_;
  std::vector<Row> rows_;
};

}  // namespace stream::allocate
