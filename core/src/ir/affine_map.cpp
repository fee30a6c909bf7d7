#include "stream/ir/affine_map.hpp"

#include <algorithm>

#include "stream/error.hpp"

namespace stream {

AffineMap::AffineMap(int num_dims, std::vector<AffineExpr> results) : num_dims_(num_dims), results_(std::move(results)) {
  if (num_dims < 0) throw Error("affine map with a negative dim count");
  for (const auto& r : results_)
    if (r.min_num_dims() > num_dims_)
      throw Error("affine map result " + r.str() + " uses a dim beyond its " + std::to_string(num_dims_) + " dims");
}

AffineMap AffineMap::identity(int num_dims) {
  std::vector<AffineExpr> r;
  for (int d = 0; d < num_dims; ++d) r.push_back(AffineExpr::dim(d));
  return AffineMap(num_dims, std::move(r));
}

AffineMap AffineMap::of_dims(int num_dims, std::span<const int> dims) {
  std::vector<AffineExpr> r;
  for (int d : dims) r.push_back(AffineExpr::dim(d));
  return AffineMap(num_dims, std::move(r));
}

std::vector<std::int64_t> AffineMap::eval(std::span<const std::int64_t> point) const {
  if (point.size() != static_cast<std::size_t>(num_dims_))
    throw Error("affine map " + str() + " evaluated at a point of " + std::to_string(point.size()) + " dims");
  std::vector<std::int64_t> out;
  out.reserve(results_.size());
  for (const auto& r : results_) out.push_back(r.eval(point));
  return out;
}

std::vector<Interval> AffineMap::ranges(std::span<const std::int64_t> extents) const {
  if (extents.size() != static_cast<std::size_t>(num_dims_))
    throw Error("affine map " + str() + " given " + std::to_string(extents.size()) + " extents");
  std::vector<Interval> out;
  out.reserve(results_.size());
  for (const auto& r : results_) out.push_back(r.range(extents));
  return out;
}

AffineMap AffineMap::compose(const AffineMap& inner) const {
  if (inner.num_results() != static_cast<std::size_t>(num_dims_))
    throw Error("cannot compose " + str() + " after " + inner.str() + ": " + std::to_string(inner.num_results()) +
                " results feed " + std::to_string(num_dims_) + " dims");
  std::vector<AffineExpr> r;
  r.reserve(results_.size());
  for (const auto& e : results_) r.push_back(e.substitute(inner.results()));
  return AffineMap(inner.num_dims(), std::move(r));
}

AffineMap AffineMap::simplified() const {
  std::vector<AffineExpr> r;
  r.reserve(results_.size());
  for (const auto& e : results_) r.push_back(e.simplified());
  return AffineMap(num_dims_, std::move(r));
}

std::vector<int> AffineMap::used_dims() const {
  std::vector<int> out;
  for (const auto& r : results_) {
    auto d = r.dims();
    out.insert(out.end(), d.begin(), d.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool AffineMap::uses_dim(int p) const {
  return std::any_of(results_.begin(), results_.end(), [p](const AffineExpr& e) { return e.uses_dim(p); });
}

bool AffineMap::is_linear() const {
  return std::all_of(results_.begin(), results_.end(), [](const AffineExpr& e) { return e.linear().has_value(); });
}

std::string AffineMap::str() const {
  std::string s = "(";
  for (int d = 0; d < num_dims_; ++d) s += (d ? ", d" : "d") + std::to_string(d);
  s += ") -> (";
  for (std::size_t i = 0; i < results_.size(); ++i) s += (i ? ", " : "") + results_[i].str();
  return s + ")";
}

}  // namespace stream
