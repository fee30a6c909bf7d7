// Spec §4.6: each steady-state node's temporal loops over the fusion splits, and the effect of
// every loop on each tensor (VARYING, INVARIANT, ABSENT).
#include <algorithm>
#include <map>
#include <queue>
#include <set>

#include "stream/schedule/steady_state.hpp"
#include "steady_state_util.hpp"

namespace stream::schedule {

using detail::contains;
using detail::graph_of;
using detail::Graph;

SteadyState add_iteration_spaces(SteadyState ss) {
  const Graph g = graph_of(ss);
  ss.iterations = 1;
  for (const auto& [d, n] : ss.fusion_splits) ss.iterations *= n;

  // Dims of compute nodes reachable from a transfer through chains of transfers.
  auto neighbour_compute_dims = [&](int start) {
    std::set<int> dims, seen{start};
    std::vector<int> stack{start};
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      for (const auto* adj : {&g.preds[static_cast<std::size_t>(n)], &g.succs[static_cast<std::size_t>(n)]})
        for (int m : *adj) {
          if (!seen.insert(m).second) continue;
          const auto& mn = ss.nodes[static_cast<std::size_t>(m)];
          if (mn.kind == SsKind::Compute) dims.insert(mn.dims.begin(), mn.dims.end());
          if (mn.kind == SsKind::Transfer) stack.push_back(m);
        }
    }
    return dims;
  };

  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    auto& n = ss.nodes[i];
    n.loops.clear();
    if (n.kind == SsKind::Compute) {
      for (const auto& [d, s] : ss.fusion_splits)
        n.loops.push_back({d, s, contains(n.dims, d) ? LoopEffect::Varying : LoopEffect::Absent});
    } else if (n.kind == SsKind::Transfer) {
      const auto near = neighbour_compute_dims(static_cast<int>(i));
      for (const auto& [d, s] : ss.fusion_splits) {
        LoopEffect e = contains(n.dims, d) ? LoopEffect::Varying
                       : near.count(d)    ? LoopEffect::Invariant
                                          : LoopEffect::Absent;
        n.loops.push_back({d, s, e});
      }
    }
  }
  for (auto& t : ss.tensors) {
    t.loops.clear();
    if (t.producer < 0) continue;
    const auto& p = ss.nodes[static_cast<std::size_t>(t.producer)];
    const SsNode* from = &p;
    if (p.kind == SsKind::InEdge) {
      const auto& succ = g.succs[static_cast<std::size_t>(t.producer)];
      if (succ.empty()) continue;
      from = &ss.nodes[static_cast<std::size_t>(succ.front())];
    }
    for (const auto& l : from->loops) {
      LoopEffect e = contains(t.dims, l.dim)            ? LoopEffect::Varying
                     : l.effect == LoopEffect::Absent ? LoopEffect::Absent
                                                      : LoopEffect::Invariant;
      t.loops.push_back({l.dim, l.size, e});
    }
  }
  return ss;
}

}  // namespace stream::schedule
