// Helpers shared by the block tests: building a block from its spec, and compact views of a
// node's iterator kinds and of a workload's composition.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <stream/ir/dimensions.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/ir/workload.hpp>
#include <stream/registry/blocks.hpp>

#include "blocks.hpp"

namespace stream::blocks::test {

inline Workload build(const BlockSpec& spec, const std::map<std::string, std::string>& params = {}) {
  return spec.build(spec.resolve(params));
}

/// "PPPPR"-style string of a node's iterator kinds.
inline std::string kinds(const Node& n) {
  std::string s;
  for (IteratorKind k : iterator_kinds(n))
    s += k == IteratorKind::Parallel ? 'P' : k == IteratorKind::Reduction ? 'R' : 'S';
  return s;
}

inline std::vector<int> positions(const Node& n, IteratorKind kind) {
  std::vector<int> out;
  const auto ks = iterator_kinds(n);
  for (std::size_t i = 0; i < ks.size(); ++i)
    if (ks[i] == kind) out.push_back(static_cast<int>(i));
  return out;
}

inline std::vector<std::string> names(const Workload& w) {
  std::vector<std::string> out;
  for (const auto& n : w.nodes()) out.push_back(n.name);
  return out;
}

inline std::size_t count(const Workload& w, NodeKind kind) { return w.nodes_of_kind(kind).size(); }

/// Sum of the loop counts of every iteration-space node (the reference's "total dims").
inline int total_dims(const Workload& w) {
  int total = 0;
  for (const auto& n : w.nodes())
    if (n.has_iteration_space()) total += n.num_dims();
  return total;
}

inline std::size_t unique_dims(const Workload& w) { return w.unified_dimensions().num_unique(); }

/// (d0..d{n-1}) -> (d{dims[0]}, ...).
inline AffineMap m(int n, std::vector<int> dims) { return AffineMap::of_dims(n, dims); }

}  // namespace stream::blocks::test
