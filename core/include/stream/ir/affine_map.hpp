// Affine maps: one per operand of a node.
//
// An AffineMap sends a point of a node's iteration space (num_dims loop indices) to an index of an
// operand tensor: one result expression per tensor axis. compose() chains maps (this after
// `inner`), which is how layout operators fold into their readers; ranges() gives the exact index
// range of every axis over a box of loop extents.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/affine_expr.hpp"

namespace stream {

class STREAM_API AffineMap {
 public:
  AffineMap() = default;
  AffineMap(int num_dims, std::vector<AffineExpr> results);
  static AffineMap identity(int num_dims);
  /// A map whose results are the given dims: permutation(3, {2, 0}) is (d0,d1,d2) -> (d2, d0).
  static AffineMap of_dims(int num_dims, std::span<const int> dims);

  [[nodiscard]] int num_dims() const { return num_dims_; }
  [[nodiscard]] std::size_t num_results() const { return results_.size(); }
  [[nodiscard]] const std::vector<AffineExpr>& results() const { return results_; }
  [[nodiscard]] const AffineExpr& result(std::size_t i) const { return results_.at(i); }

  [[nodiscard]] std::vector<std::int64_t> eval(std::span<const std::int64_t> point) const;
  [[nodiscard]] std::vector<Interval> ranges(std::span<const std::int64_t> extents) const;
  /// (this ∘ inner)(x) = this(inner(x)); requires inner.num_results() == num_dims().
  [[nodiscard]] AffineMap compose(const AffineMap& inner) const;
  [[nodiscard]] AffineMap simplified() const;
  /// Dims used anywhere in the map, ascending.
  [[nodiscard]] std::vector<int> used_dims() const;
  [[nodiscard]] bool uses_dim(int position) const;
  /// True when every result is linear (no floordiv/mod).
  [[nodiscard]] bool is_linear() const;
  [[nodiscard]] std::string str() const;  ///< `(d0, d1, d2) -> (d0, (d1 + -1))`

  bool operator==(const AffineMap& other) const = default;

 private:
  int num_dims_ = 0;
  std::vector<AffineExpr> results_;
};

}  // namespace stream
