#include "subgraph.hpp"

#include <algorithm>
#include <set>

namespace stream::decompositions {

Workload Subgraph::build(const std::vector<std::string>& out_names) && {
  std::vector<Node> nodes;
  std::set<std::string> seen;
  for (const auto& in : origin_.inputs)
    if (seen.insert(in->name).second) nodes.push_back(make_in_edge(in->name, in));
  for (auto& n : ops_) nodes.push_back(std::move(n));
  for (std::size_t i = 0; i < origin_.outputs.size(); ++i) nodes.push_back(make_out_edge(out_names.at(i), origin_.outputs[i]));
  return Workload(std::move(nodes));
}

AffineMap drop_axes(int rank, const std::vector<int>& axes) {
  std::vector<int> kept;
  for (int d = 0; d < rank; ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) kept.push_back(d);
  return AffineMap::of_dims(rank, kept);
}

std::vector<std::int64_t> drop_axes(const std::vector<std::int64_t>& shape, const std::vector<int>& axes) {
  std::vector<std::int64_t> out;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (std::find(axes.begin(), axes.end(), static_cast<int>(d)) == axes.end()) out.push_back(shape[d]);
  return out;
}

AffineMap broadcast_map(const std::vector<std::int64_t>& extents, const std::vector<std::int64_t>& shape) {
  const int rank = static_cast<int>(extents.size());
  const int offset = rank - static_cast<int>(shape.size());
  std::vector<AffineExpr> results;
  for (std::size_t j = 0; j < shape.size(); ++j) {
    const int d = offset + static_cast<int>(j);
    const bool broadcast = shape[j] == 1 && extents[static_cast<std::size_t>(d)] != 1;
    results.push_back(broadcast ? AffineExpr::constant(0) : AffineExpr::dim(d));
  }
  return AffineMap(rank, std::move(results));
}

}  // namespace stream::decompositions
