// Small helpers the steady-state steps share (transfers, iteration spaces, time slots).
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "stream/ir/affine_map.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::schedule::detail {

inline bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

inline std::int64_t product(const std::vector<std::int64_t>& v) {
  std::int64_t p = 1;
  for (auto x : v) p *= x;
  return p;
}

// Unified dims indexing a tensor through `map` of a node whose local dims are `node_dims`.
inline std::vector<int> tensor_dims(const AffineMap& map, const std::vector<int>& node_dims) {
  std::set<int> out;
  for (int d : map.used_dims()) out.insert(node_dims.at(static_cast<std::size_t>(d)));
  return {out.begin(), out.end()};
}

// Producer/consumer adjacency of the steady-state graph.
struct Graph {
  std::vector<std::vector<int>> preds, succs;
};

inline Graph graph_of(const SteadyState& ss) {
  Graph g;
  g.preds.resize(ss.nodes.size());
  g.succs.resize(ss.nodes.size());
  for (std::size_t i = 0; i < ss.nodes.size(); ++i)
    for (int t : ss.nodes[i].inputs) {
      const int p = ss.tensors[static_cast<std::size_t>(t)].producer;
      if (p < 0 || contains(g.preds[i], p)) continue;
      g.preds[i].push_back(p);
      g.succs[static_cast<std::size_t>(p)].push_back(static_cast<int>(i));
    }
  return g;
}

}  // namespace stream::schedule::detail
