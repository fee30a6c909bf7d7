// Affine expressions over a node's iteration dimensions.
//
// An AffineExpr is an immutable expression tree: a dimension dN, an integer constant, a sum, a
// product by a constant, and floor-division or modulo by a positive constant. Construction
// applies the reference's (xDSL's) folding rules, so `d2 + d4 - 1` prints `((d2 + d4) + -1)` as
// the reference prints it; simplified() goes further and gives a canonical form (linear terms
// merged, constant last, trivial div/mod removed). Most maps are affine-linear: linear() returns
// the coefficient vector and offset for those. range() gives the exact [min, max] of the
// expression over a box of loop extents (each dim d in [0, extent_d - 1]).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "stream/export.hpp"

namespace stream {

struct Interval {
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  [[nodiscard]] std::int64_t size() const { return hi - lo + 1; }
  bool operator==(const Interval&) const = default;
};

/// The linear form c0*d0 + c1*d1 + ... + constant. coeffs has one entry per dim up to the
/// highest dim used (shorter than num_dims when trailing dims are unused).
struct STREAM_API LinearForm {
  std::vector<std::int64_t> coeffs;
  std::int64_t constant = 0;
  [[nodiscard]] std::int64_t coeff(int dim) const {
    return dim < static_cast<int>(coeffs.size()) ? coeffs[static_cast<std::size_t>(dim)] : 0;
  }
  [[nodiscard]] int num_terms() const;  ///< dims with a non-zero coefficient
};

class STREAM_API AffineExpr {
 public:
  enum class Kind { Dim, Const, Add, Mul, FloorDiv, Mod };

  AffineExpr();  ///< the constant 0
  static AffineExpr dim(int position);
  static AffineExpr constant(std::int64_t value);
  /// Builds sum(coeffs[i] * d_i) + constant in dim order (terms with coefficient 0 omitted).
  static AffineExpr from_linear(const LinearForm& form);

  [[nodiscard]] Kind kind() const;
  [[nodiscard]] int position() const;           ///< Dim only
  [[nodiscard]] std::int64_t value() const;     ///< Const only; for Mul/FloorDiv/Mod the constant operand
  [[nodiscard]] const AffineExpr& lhs() const;  ///< Add/Mul/FloorDiv/Mod
  [[nodiscard]] const AffineExpr& rhs() const;  ///< Add only

  [[nodiscard]] bool is_dim() const { return kind() == Kind::Dim; }
  [[nodiscard]] bool is_constant() const { return kind() == Kind::Const; }
  /// The largest dim index used plus one (0 for a constant).
  [[nodiscard]] int min_num_dims() const;
  /// True when the expression uses dim `position` with a non-zero effect.
  [[nodiscard]] bool uses_dim(int position) const;
  /// Dims with a non-zero coefficient (linear) or appearing at all (non-linear), ascending.
  [[nodiscard]] std::vector<int> dims() const;
  /// Set when the expression has no floordiv/mod (after simplification).
  [[nodiscard]] std::optional<LinearForm> linear() const;
  /// The dim this expression indexes alone (coefficient 1, no offset), or -1.
  [[nodiscard]] int bare_dim() const;

  [[nodiscard]] std::int64_t eval(std::span<const std::int64_t> dims) const;
  /// Exact minimum and maximum over the box 0 <= d_i < extents[i]; every used dim needs an extent >= 1.
  [[nodiscard]] Interval range(std::span<const std::int64_t> extents) const;
  /// Substitutes expression `replacements[i]` for dim i (composition).
  [[nodiscard]] AffineExpr substitute(std::span<const AffineExpr> replacements) const;
  [[nodiscard]] AffineExpr simplified() const;
  [[nodiscard]] std::string str() const;  ///< the reference's printing: `((d2 + d4) + -1)`

  friend STREAM_API AffineExpr operator+(const AffineExpr& a, const AffineExpr& b);
  friend STREAM_API AffineExpr operator+(const AffineExpr& a, std::int64_t b);
  friend STREAM_API AffineExpr operator-(const AffineExpr& a, const AffineExpr& b);
  friend STREAM_API AffineExpr operator-(const AffineExpr& a, std::int64_t b);
  friend STREAM_API AffineExpr operator*(const AffineExpr& a, std::int64_t c);
  friend STREAM_API AffineExpr operator*(std::int64_t c, const AffineExpr& a);
  /// Multiplication of two expressions; one side must be a constant.
  friend STREAM_API AffineExpr operator*(const AffineExpr& a, const AffineExpr& b);
  [[nodiscard]] AffineExpr floordiv(std::int64_t c) const;
  [[nodiscard]] AffineExpr mod(std::int64_t c) const;

  /// Structural equality (same tree).
  bool operator==(const AffineExpr& other) const;

  struct Node;

 private:
  explicit AffineExpr(std::shared_ptr<const Node> n) : node_(std::move(n)) {}
  struct Empty {};
  explicit AffineExpr(Empty) {}  // the absent child of a leaf node
  std::shared_ptr<const Node> node_;
};

}  // namespace stream
