#include "stream/allocate/linear_model.hpp"

#include <algorithm>
#include <cmath>

#include "stream/error.hpp"

namespace stream::allocate {

LinExpr& LinExpr::operator+=(const LinExpr& o) {
  terms.insert(terms.end(), o.terms.begin(), o.terms.end());
  constant += o.constant;
  return *this;
}
LinExpr& LinExpr::operator-=(const LinExpr& o) {
  for (const auto& [v, c] : o.terms) terms.emplace_back(v, -c);
  constant -= o.constant;
  return *this;
}
LinExpr& LinExpr::operator*=(double k) {
  for (auto& t : terms) t.second *= k;
  constant *= k;
  return *this;
}
LinExpr operator+(LinExpr a, const LinExpr& b) { return a += b; }
LinExpr operator-(LinExpr a, const LinExpr& b) { return a -= b; }
LinExpr operator*(double k, LinExpr a) { return a *= k; }

Var LinearModel::add_var(std::string name, VarKind kind, double lo, double hi) {
  if (kind == VarKind::Binary) {
    lo = std::max(lo, 0.0);
    hi = std::min(hi, 1.0);
  }
  vars_.push_back({std::move(name), kind, lo, hi});
  return Var{static_cast<int>(vars_.size()) - 1};
}

void LinearModel::add_range(const LinExpr& expr, double lo, double hi, std::string name, std::string family) {
  Row row;
  row.name = std::move(name);
  row.family = std::move(family);
  std::vector<std::pair<int, double>> t = expr.terms;
  std::sort(t.begin(), t.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [v, c] : t) {
    if (v < 0 || static_cast<std::size_t>(v) >= vars_.size())
      throw Error("MILP row '" + row.name + "' uses an unknown variable", Location{}, ErrorKind::Internal);
    if (!row.terms.empty() && row.terms.back().first == v)
      row.terms.back().second += c;
    else
      row.terms.emplace_back(v, c);
  }
  std::erase_if(row.terms, [](const auto& p) { return p.second == 0; });
  row.lo = std::isinf(lo) ? lo : lo - expr.constant;
  row.hi = std::isinf(hi) ? hi : hi - expr.constant;
  rows_.push_back(std::move(row));
}

void LinearModel::add_le(const LinExpr& lhs, const LinExpr& rhs, std::string name, std::string family) {
  add_range(lhs - rhs, -kInf, 0, std::move(name), std::move(family));
}
void LinearModel::add_ge(const LinExpr& lhs, const LinExpr& rhs, std::string name, std::string family) {
  add_range(lhs - rhs, 0, kInf, std::move(name), std::move(family));
}
void LinearModel::add_eq(const LinExpr& lhs, const LinExpr& rhs, std::string name, std::string family) {
  add_range(lhs - rhs, 0, 0, std::move(name), std::move(family));
}

std::size_t LinearModel::num_nonzeros() const {
  std::size_t n = 0;
  for (const auto& r : rows_) n += r.terms.size();
  return n;
}

std::size_t LinearModel::count(VarKind kind) const {
  return static_cast<std::size_t>(std::count_if(vars_.begin(), vars_.end(), [&](const VarInfo& v) { return v.kind == kind; }));
}

double LinearModel::value(const LinExpr& e, const std::vector<double>& x) {
  double s = e.constant;
  for (const auto& [v, c] : e.terms) s += c * x.at(static_cast<std::size_t>(v));
  return s;
}

}  // namespace stream::allocate
