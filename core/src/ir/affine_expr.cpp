#include "stream/ir/affine_expr.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "stream/error.hpp"

namespace stream {

struct AffineExpr::Node {
  Kind kind;
  std::int64_t value = 0;  // dim position, constant, or the constant operand of Mul/FloorDiv/Mod
  AffineExpr lhs_{Empty{}};
  AffineExpr rhs_{Empty{}};
};

namespace {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

// Below this many points a non-linear expression's range is found by enumeration, which is exact.
constexpr std::int64_t kEnumerationLimit = std::int64_t{1} << 22;

}  // namespace

AffineExpr::AffineExpr() : node_(std::make_shared<const Node>(Node{Kind::Const, 0})) {}

AffineExpr AffineExpr::dim(int position) {
  if (position < 0) throw Error("affine dim position must be >= 0, got " + std::to_string(position));
  return AffineExpr(std::make_shared<const Node>(Node{Kind::Dim, position}));
}

AffineExpr AffineExpr::constant(std::int64_t value) {
  return AffineExpr(std::make_shared<const Node>(Node{Kind::Const, value}));
}

AffineExpr AffineExpr::from_linear(const LinearForm& form) {
  std::optional<AffineExpr> acc;
  for (std::size_t d = 0; d < form.coeffs.size(); ++d) {
    if (form.coeffs[d] == 0) continue;
    AffineExpr term = dim(static_cast<int>(d)) * form.coeffs[d];
    acc = acc ? *acc + term : term;
  }
  if (!acc) return constant(form.constant);
  return *acc + form.constant;
}

AffineExpr::Kind AffineExpr::kind() const { return node_->kind; }
int AffineExpr::position() const { return static_cast<int>(node_->value); }

int AffineExpr::bare_dim() const {
  if (is_dim()) return position();
  auto f = linear();
  if (f && f->constant == 0 && f->num_terms() == 1)
    for (std::size_t d = 0; d < f->coeffs.size(); ++d)
      if (f->coeffs[d] == 1) return static_cast<int>(d);
  return -1;
}
std::int64_t AffineExpr::value() const { return node_->value; }
const AffineExpr& AffineExpr::lhs() const { return node_->lhs_; }
const AffineExpr& AffineExpr::rhs() const { return node_->rhs_; }

int LinearForm::num_terms() const {
  return static_cast<int>(std::count_if(coeffs.begin(), coeffs.end(), [](auto c) { return c != 0; }));
}

// xDSL's construction-time folding (spec §1.3): constants on the right, const op const folded,
// `+ 0` and `* 1` dropped, (x + c1) + c2 and (x * c1) * c2 folded, (x + y) * c distributed.
AffineExpr operator+(const AffineExpr& a, const AffineExpr& b) {
  if (a.is_constant() && b.is_constant()) return AffineExpr::constant(a.value() + b.value());
  if (a.is_constant()) return b + a;
  if (b.is_constant()) {
    if (b.value() == 0) return a;
    if (a.kind() == AffineExpr::Kind::Add && a.rhs().is_constant())
      return a.lhs() + AffineExpr::constant(a.rhs().value() + b.value());
  }
  return AffineExpr(std::make_shared<const AffineExpr::Node>(AffineExpr::Node{AffineExpr::Kind::Add, 0, a, b}));
}
AffineExpr operator+(const AffineExpr& a, std::int64_t b) { return a + AffineExpr::constant(b); }
AffineExpr operator-(const AffineExpr& a, const AffineExpr& b) { return a + b * -1; }
AffineExpr operator-(const AffineExpr& a, std::int64_t b) { return a + AffineExpr::constant(-b); }

AffineExpr operator*(const AffineExpr& a, std::int64_t c) {
  switch (a.kind()) {
    case AffineExpr::Kind::Const:
      return AffineExpr::constant(a.value() * c);
    case AffineExpr::Kind::Mul:
      return a.lhs() * (a.value() * c);
    case AffineExpr::Kind::Add:
      return a.lhs() * c + a.rhs() * c;
    default:
      break;
  }
  if (c == 1) return a;
  if (c == 0) return AffineExpr::constant(0);
  return AffineExpr(std::make_shared<const AffineExpr::Node>(AffineExpr::Node{AffineExpr::Kind::Mul, c, a}));
}
AffineExpr operator*(std::int64_t c, const AffineExpr& a) { return a * c; }
AffineExpr operator*(const AffineExpr& a, const AffineExpr& b) {
  if (b.is_constant()) return a * b.value();
  if (a.is_constant()) return b * a.value();
  throw Error("affine expressions can only be multiplied by a constant: " + a.str() + " * " + b.str());
}

AffineExpr AffineExpr::floordiv(std::int64_t c) const {
  if (c <= 0) throw Error("affine floordiv needs a positive constant, got " + std::to_string(c));
  if (is_constant()) return constant(floor_div(value(), c));
  if (c == 1) return *this;
  return AffineExpr(std::make_shared<const Node>(Node{Kind::FloorDiv, c, *this}));
}

AffineExpr AffineExpr::mod(std::int64_t c) const {
  if (c <= 0) throw Error("affine mod needs a positive constant, got " + std::to_string(c));
  if (is_constant()) return constant(floor_mod(value(), c));
  if (c == 1) return constant(0);
  return AffineExpr(std::make_shared<const Node>(Node{Kind::Mod, c, *this}));
}

int AffineExpr::min_num_dims() const {
  switch (kind()) {
    case Kind::Dim:
      return position() + 1;
    case Kind::Const:
      return 0;
    case Kind::Add:
      return std::max(lhs().min_num_dims(), rhs().min_num_dims());
    default:
      return lhs().min_num_dims();
  }
}

namespace {
void collect_dims(const AffineExpr& e, std::vector<int>& out) {
  switch (e.kind()) {
    case AffineExpr::Kind::Dim:
      out.push_back(e.position());
      break;
    case AffineExpr::Kind::Const:
      break;
    case AffineExpr::Kind::Add:
      collect_dims(e.lhs(), out);
      collect_dims(e.rhs(), out);
      break;
    default:
      collect_dims(e.lhs(), out);
  }
}

// Linear form of a tree, or nullopt when a floordiv/mod does not reduce to a linear expression.
bool accumulate_linear(const AffineExpr& e, std::int64_t scale, LinearForm& acc) {
  switch (e.kind()) {
    case AffineExpr::Kind::Dim: {
      auto p = static_cast<std::size_t>(e.position());
      if (acc.coeffs.size() <= p) acc.coeffs.resize(p + 1, 0);
      acc.coeffs[p] += scale;
      return true;
    }
    case AffineExpr::Kind::Const:
      acc.constant += scale * e.value();
      return true;
    case AffineExpr::Kind::Add:
      return accumulate_linear(e.lhs(), scale, acc) && accumulate_linear(e.rhs(), scale, acc);
    case AffineExpr::Kind::Mul:
      return accumulate_linear(e.lhs(), scale * e.value(), acc);
    case AffineExpr::Kind::FloorDiv:
    case AffineExpr::Kind::Mod: {
      LinearForm inner;
      if (!accumulate_linear(e.lhs(), 1, inner)) return false;
      const std::int64_t c = e.value();
      bool divisible = inner.constant % c == 0;
      for (auto k : inner.coeffs) divisible = divisible && k % c == 0;
      if (!divisible) return false;
      if (e.kind() == AffineExpr::Kind::Mod) return true;  // (c*x) mod c == 0
      for (std::size_t d = 0; d < inner.coeffs.size(); ++d) {
        if (acc.coeffs.size() <= d) acc.coeffs.resize(d + 1, 0);
        acc.coeffs[d] += scale * (inner.coeffs[d] / c);
      }
      acc.constant += scale * (inner.constant / c);
      return true;
    }
  }
  return false;
}

void trim(LinearForm& f) {
  while (!f.coeffs.empty() && f.coeffs.back() == 0) f.coeffs.pop_back();
}
}  // namespace

std::optional<LinearForm> AffineExpr::linear() const {
  LinearForm f;
  if (!accumulate_linear(*this, 1, f)) return std::nullopt;
  trim(f);
  return f;
}

bool AffineExpr::uses_dim(int p) const {
  if (auto f = linear()) return f->coeff(p) != 0;
  std::vector<int> d;
  collect_dims(*this, d);
  return std::find(d.begin(), d.end(), p) != d.end();
}

std::vector<int> AffineExpr::dims() const {
  std::vector<int> out;
  if (auto f = linear()) {
    for (std::size_t d = 0; d < f->coeffs.size(); ++d)
      if (f->coeffs[d] != 0) out.push_back(static_cast<int>(d));
    return out;
  }
  collect_dims(*this, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::int64_t AffineExpr::eval(std::span<const std::int64_t> point) const {
  switch (kind()) {
    case Kind::Dim:
      if (static_cast<std::size_t>(position()) >= point.size())
        throw Error("affine expression " + str() + " evaluated with only " + std::to_string(point.size()) + " dims");
      return point[static_cast<std::size_t>(position())];
    case Kind::Const:
      return value();
    case Kind::Add:
      return lhs().eval(point) + rhs().eval(point);
    case Kind::Mul:
      return lhs().eval(point) * value();
    case Kind::FloorDiv:
      return floor_div(lhs().eval(point), value());
    case Kind::Mod:
      return floor_mod(lhs().eval(point), value());
  }
  return 0;
}

namespace {
// Interval bound by structural recursion; exact for linear expressions and for div/mod over
// independent sub-expressions, an over-approximation otherwise (only used past the enumeration limit).
Interval bound(const AffineExpr& e, std::span<const std::int64_t> extents) {
  switch (e.kind()) {
    case AffineExpr::Kind::Dim:
      return {0, extents[static_cast<std::size_t>(e.position())] - 1};
    case AffineExpr::Kind::Const:
      return {e.value(), e.value()};
    case AffineExpr::Kind::Add: {
      auto a = bound(e.lhs(), extents), b = bound(e.rhs(), extents);
      return {a.lo + b.lo, a.hi + b.hi};
    }
    case AffineExpr::Kind::Mul: {
      auto a = bound(e.lhs(), extents);
      auto x = a.lo * e.value(), y = a.hi * e.value();
      return {std::min(x, y), std::max(x, y)};
    }
    case AffineExpr::Kind::FloorDiv: {
      auto a = bound(e.lhs(), extents);
      return {floor_div(a.lo, e.value()), floor_div(a.hi, e.value())};
    }
    case AffineExpr::Kind::Mod: {
      auto a = bound(e.lhs(), extents);
      if (floor_div(a.lo, e.value()) == floor_div(a.hi, e.value()))
        return {floor_mod(a.lo, e.value()), floor_mod(a.hi, e.value())};
      return {0, e.value() - 1};
    }
  }
  return {};
}
}  // namespace

Interval AffineExpr::range(std::span<const std::int64_t> extents) const {
  const auto used = dims();
  for (int d : used) {
    if (static_cast<std::size_t>(d) >= extents.size() || extents[static_cast<std::size_t>(d)] < 1)
      throw Error("range of " + str() + ": dim d" + std::to_string(d) + " has no extent >= 1");
  }
  if (auto f = linear()) {
    Interval r{f->constant, f->constant};
    for (std::size_t d = 0; d < f->coeffs.size(); ++d) {
      const auto span = f->coeffs[d] * (extents[d] - 1);
      (span < 0 ? r.lo : r.hi) += span;
    }
    return r;
  }
  std::int64_t points = 1;
  for (int d : used) {
    points *= extents[static_cast<std::size_t>(d)];
    if (points > kEnumerationLimit) return bound(*this, extents);
  }
  std::vector<std::int64_t> p(extents.size(), 0);
  Interval r{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
  while (true) {
    const auto v = eval(p);
    r.lo = std::min(r.lo, v);
    r.hi = std::max(r.hi, v);
    std::size_t i = 0;
    for (; i < used.size(); ++i) {
      auto& x = p[static_cast<std::size_t>(used[i])];
      if (++x < extents[static_cast<std::size_t>(used[i])]) break;
      x = 0;
    }
    if (i == used.size()) break;
  }
  return r;
}

AffineExpr AffineExpr::substitute(std::span<const AffineExpr> replacements) const {
  switch (kind()) {
    case Kind::Dim:
      if (static_cast<std::size_t>(position()) >= replacements.size())
        throw Error("cannot substitute d" + std::to_string(position()) + ": only " +
                    std::to_string(replacements.size()) + " replacements");
      return replacements[static_cast<std::size_t>(position())];
    case Kind::Const:
      return *this;
    case Kind::Add:
      return lhs().substitute(replacements) + rhs().substitute(replacements);
    case Kind::Mul:
      return lhs().substitute(replacements) * value();
    case Kind::FloorDiv:
      return lhs().substitute(replacements).floordiv(value());
    case Kind::Mod:
      return lhs().substitute(replacements).mod(value());
  }
  return *this;
}

AffineExpr AffineExpr::simplified() const {
  if (auto f = linear()) return from_linear(*f);
  switch (kind()) {
    case Kind::Add:
      return lhs().simplified() + rhs().simplified();
    case Kind::Mul:
      return lhs().simplified() * value();
    case Kind::FloorDiv:
    case Kind::Mod: {
      // (c*a + r) floordiv c == a + r floordiv c and (c*a + r) mod c == r mod c, for integer a.
      const std::int64_t c = value();
      auto inner = lhs().simplified();
      if (auto f = inner.linear()) {
        LinearForm quotient, rest;
        quotient.coeffs.resize(f->coeffs.size(), 0);
        rest.coeffs.resize(f->coeffs.size(), 0);
        for (std::size_t d = 0; d < f->coeffs.size(); ++d) {
          if (f->coeffs[d] % c == 0)
            quotient.coeffs[d] = f->coeffs[d] / c;
          else
            rest.coeffs[d] = f->coeffs[d];
        }
        quotient.constant = floor_div(f->constant, c);
        rest.constant = floor_mod(f->constant, c);
        trim(quotient);
        trim(rest);
        auto r = from_linear(rest);
        if (kind() == Kind::Mod) return r.mod(c);
        if (rest.num_terms() == 0) return from_linear(quotient);
        return from_linear(quotient) + r.floordiv(c);
      }
      return kind() == Kind::Mod ? inner.mod(c) : inner.floordiv(c);
    }
    default:
      return *this;
  }
}

std::string AffineExpr::str() const {
  switch (kind()) {
    case Kind::Dim:
      return "d" + std::to_string(position());
    case Kind::Const:
      return std::to_string(value());
    case Kind::Add:
      return "(" + lhs().str() + " + " + rhs().str() + ")";
    case Kind::Mul:
      return "(" + lhs().str() + " * " + std::to_string(value()) + ")";
    case Kind::FloorDiv:
      return "(" + lhs().str() + " floordiv " + std::to_string(value()) + ")";
    case Kind::Mod:
      return "(" + lhs().str() + " mod " + std::to_string(value()) + ")";
  }
  return {};
}

bool AffineExpr::operator==(const AffineExpr& o) const {
  if (node_ == o.node_) return true;
  if (kind() != o.kind() || value() != o.value()) return false;
  switch (kind()) {
    case Kind::Dim:
    case Kind::Const:
      return true;
    case Kind::Add:
      return lhs() == o.lhs() && rhs() == o.rhs();
    default:
      return lhs() == o.lhs();
  }
}

}  // namespace stream
