// k shortest simple paths on the interconnect graph, reproducing networkx.shortest_simple_paths
// (networkx/algorithms/simple_paths.py) called with a weight attribute that every edge lacks, so
// every edge weighs 1 — what the reference's CommunicationManager does (weight "w").
//
// The order of equally long paths is what matters for the reference's routing, and it comes from
// four networkx details reproduced here:
//  1. with a weight given, networkx uses _bidirectional_dijkstra (not the BFS variant) both for the
//     first path and for every spur path. That search alternates direction on every pop (forward
//     first), keeps one heap per direction ordered by (distance, push counter) (with unit weights
//     a heap pops in push order, so FIFOs here), scans successors (forward) / predecessors
//     (backward) in adjacency order (see 4), skips ignored nodes and edges, and remembers the
//     best meeting path seen when a node becomes seen from both sides; it returns it as soon as a
//     popped node is already final in the other direction. The first meeting path found wins
//     ties (strict `>` update).
//  2. Yen's loop: for i = 1..len(prev)-1, root = prev[:i], ignore the edge (p[i-1], p[i]) of every
//     accepted path p sharing that root, search the spur from root[-1] with the nodes of
//     prev[:i-1] ignored, push root[:-1] + spur with length (i - 1) + spur length.
//  3. candidates live in a heap of (length, push counter, path) and a path already waiting is not
//     pushed again, so among equally long candidates the one discovered first is yielded first.
//  4. the graph searched is the reference's copy nx.DiGraph(G) (CommunicationManager routes on
//     it), not G: networkx copies node by node and then each node's successors, so in the copy a
//     node's successors keep G's insertion order but its predecessors are in node order (the
//     order of first appearance, graph_cores()). The backward search scans predecessors, so this
//     decides which of two equally long paths is met first: on whole_array_strix it sends the
//     reference's multicast of the SwiGLU input over the horizontal links and so sets its slots.
// Checked against networkx (2.8.8 and 3.6.1 copy a graph the same way) on every ordered core pair
// of every reference hardware file (tests/schedule/data/networkx_simple_paths.txt keeps a sample).
// The per-call tables are sized by cores and edges (not cores squared), so a call costs
// O(k * path length * (cores + edges)).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <functional>
#include <queue>
#include <set>
#include <tuple>

#include "stream/hardware/accelerator.hpp"

namespace stream::hardware {

namespace {

using Path = std::vector<int>;

// Ignored nodes by core id and ignored edges by their index in Accelerator::edges(); what was set
// is remembered so that clearing costs what was set, not the graph's size (these run once per
// accepted path of every routed core pair).
struct Filters {
  const Accelerator* acc = nullptr;
  std::vector<char> node;
  std::vector<char> edge;
  std::vector<std::size_t> set_nodes, set_edges;
  bool edge_ignored(int from, int to) const {
    return edge[static_cast<std::size_t>(acc->edge_position(from, to))] != 0;
  }
  void ignore_node(int v) {
    if (!node[static_cast<std::size_t>(v)]) set_nodes.push_back(static_cast<std::size_t>(v));
    node[static_cast<std::size_t>(v)] = 1;
  }
  void ignore_edge(int from, int to) {
    const auto e = static_cast<std::size_t>(acc->edge_position(from, to));
    if (!edge[e]) set_edges.push_back(e);
    edge[e] = 1;
  }
  void clear() {
    for (auto v : set_nodes) node[v] = 0;
    for (auto e : set_edges) edge[e] = 0;
    set_nodes.clear();
    set_edges.clear();
  }
};

// Buffers of one search, reused across the spur searches of a Yen run.
struct Workspace {
  // networkx pops (distance, counter) from a heap per direction. With unit weights a direction
  // pushes distance d + 1 after popping d, and pops never decrease, so its pushes come in
  // (distance, counter) order already: a FIFO pops exactly what the heap would.
  using Entry = std::pair<std::int64_t, int>;  // (distance, node)
  std::vector<std::int64_t> dists[2], seen[2];
  // networkx stores whole paths per node (paths[dir][w] = paths[dir][v] + [w]); a node's path
  // only changes while it is not final and a final node's path never changes, so the parent it
  // was last relaxed from rebuilds the same path.
  std::vector<int> parent[2];
  std::vector<Entry> fringe[2];
  std::size_t head[2] = {0, 0};
  std::vector<const std::vector<int>*> neighbours[2];  ///< successors, predecessors by core id
  // Predecessors in the copy's order (detail 4), put in order when a node is first scanned
  // backward: a search touches few nodes, and sorting all of them per call would cost every edge
  // of a large bus.
  std::vector<int> rank;                    ///< position in graph_cores() by core id
  std::vector<char> in_copy_order;          ///< neighbours[1][v] already in node order
  std::vector<std::vector<int>> reordered;  ///< storage for the lists G does not have in order
  Workspace(const Accelerator& acc, std::size_t n) : rank(n, 0), in_copy_order(n, 0), reordered(n) {
    for (int d = 0; d < 2; ++d) {
      dists[d].resize(n);
      seen[d].resize(n);
      parent[d].resize(n);
      neighbours[d].resize(n);
    }
    for (std::size_t v = 0; v < n; ++v) {
      neighbours[0][v] = &acc.successors(static_cast<int>(v));
      neighbours[1][v] = &acc.predecessors(static_cast<int>(v));
    }
    const auto& order = acc.graph_cores();
    for (std::size_t i = 0; i < order.size(); ++i) rank[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  }
  // The nodes a search scans from v: successors forward, predecessors in node order backward.
  const std::vector<int>& scan(int dir, int v) {
    const auto i = static_cast<std::size_t>(v);
    if (dir == 1 && !in_copy_order[i]) {
      in_copy_order[i] = 1;
      auto by_rank = [this](int a, int b) { return rank[static_cast<std::size_t>(a)] < rank[static_cast<std::size_t>(b)]; };
      if (!std::is_sorted(neighbours[1][i]->begin(), neighbours[1][i]->end(), by_rank)) {
        reordered[i] = *neighbours[1][i];
        std::sort(reordered[i].begin(), reordered[i].end(), by_rank);  // ranks are distinct
        neighbours[1][i] = &reordered[i];
      }
    }
    return *neighbours[dir][i];
  }
};

// networkx.algorithms.simple_paths._bidirectional_dijkstra with unit weights.
std::optional<std::pair<std::int64_t, Path>> bidirectional_dijkstra(int source, int target, const Filters& f,
                                                                    Workspace& ws) {
  auto idx = [](int v) { return static_cast<std::size_t>(v); };
  if (f.node[idx(source)] || f.node[idx(target)]) return std::nullopt;
  if (source == target) return std::make_pair(std::int64_t{0}, Path{source});
  constexpr std::int64_t unseen = -1;
  auto& dists = ws.dists;
  auto& seen = ws.seen;
  auto& parent = ws.parent;
  auto& fringe = ws.fringe;
  for (int d = 0; d < 2; ++d) {
    std::fill(dists[d].begin(), dists[d].end(), unseen);
    std::fill(seen[d].begin(), seen[d].end(), unseen);
    fringe[d].clear();
    ws.head[d] = 0;
  }
  parent[0][idx(source)] = -1;
  parent[1][idx(target)] = -1;
  seen[0][idx(source)] = 0;
  seen[1][idx(target)] = 0;
  fringe[0].emplace_back(0, source);
  fringe[1].emplace_back(0, target);
  std::int64_t final_dist = 0;
  Path final_path;
  int dir = 1;
  auto& head = ws.head;
  while (head[0] < fringe[0].size() && head[1] < fringe[1].size()) {
    dir = 1 - dir;
    const auto [dist, v] = fringe[dir][head[dir]++];
    if (dists[dir][idx(v)] != unseen) continue;
    dists[dir][idx(v)] = dist;
    if (dists[1 - dir][idx(v)] != unseen) return std::make_pair(final_dist, final_path);
    for (int w : ws.scan(dir, v)) {
      if (f.node[idx(w)]) continue;
      if (dir == 0 ? f.edge_ignored(v, w) : f.edge_ignored(w, v)) continue;
      const std::int64_t vw = dist + 1;
      if (dists[dir][idx(w)] != unseen) continue;
      if (seen[dir][idx(w)] != unseen && vw >= seen[dir][idx(w)]) continue;
      seen[dir][idx(w)] = vw;
      fringe[dir].emplace_back(vw, w);
      parent[dir][idx(w)] = v;
      if (seen[0][idx(w)] != unseen && seen[1][idx(w)] != unseen) {
        const std::int64_t total = seen[0][idx(w)] + seen[1][idx(w)];
        if (final_path.empty() || final_dist > total) {
          final_dist = total;
          final_path.clear();
          for (int x = w; x != -1; x = parent[0][idx(x)]) final_path.push_back(x);
          std::reverse(final_path.begin(), final_path.end());
          for (int x = parent[1][idx(w)]; x != -1; x = parent[1][idx(x)]) final_path.push_back(x);
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::vector<int>> Accelerator::shortest_simple_paths(int from, int to, std::size_t k) const {
  std::vector<Path> accepted;  // networkx listA
  if (k == 0 || !in_graph(from) || !in_graph(to)) return accepted;
  Filters filters;
  filters.acc = this;
  filters.node.assign(cores.size(), 0);
  filters.edge.assign(edges().size(), 0);
  Workspace workspace(*this, cores.size());

  // networkx PathBuffer: heap of (length, counter, path) plus the set of paths waiting in it.
  using Candidate = std::tuple<std::int64_t, std::int64_t, Path>;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> candidates;
  std::set<Path> waiting;
  std::int64_t counter = 0;
  auto push = [&](std::int64_t length, Path path) {
    if (waiting.insert(path).second) candidates.emplace(length, counter++, std::move(path));
  };

  while (accepted.size() < k) {
    if (accepted.empty()) {
      auto first = bidirectional_dijkstra(from, to, filters, workspace);
      if (!first) return accepted;
      push(first->first, std::move(first->second));
    } else {
      const Path& prev = accepted.back();
      filters.clear();
      for (std::size_t i = 1; i < prev.size(); ++i) {
        const Path root(prev.begin(), prev.begin() + static_cast<std::ptrdiff_t>(i));
        for (const Path& p : accepted)
          if (p.size() > i && std::equal(root.begin(), root.end(), p.begin()))
            filters.ignore_edge(p[i - 1], p[i]);
        if (auto spur = bidirectional_dijkstra(root.back(), to, filters, workspace)) {
          Path path(root.begin(), root.end() - 1);
          path.insert(path.end(), spur->second.begin(), spur->second.end());
          push(static_cast<std::int64_t>(i - 1) + spur->first, std::move(path));
        }
        filters.ignore_node(root.back());
      }
    }
    if (candidates.empty()) break;
    // The heap's top is const; the counter makes entries unique, so copying out is safe.
    Path path = std::get<2>(candidates.top());
    candidates.pop();
    waiting.erase(path);
    accepted.push_back(std::move(path));
  }
  return accepted;
}

}  // namespace stream::hardware
