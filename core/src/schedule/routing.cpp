#include "stream/schedule/routing.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "stream/error.hpp"

namespace stream::schedule {

std::string topology_key(const hardware::Accelerator& acc) {
  std::string key;
  key.reserve(acc.edges().size() * 12);
  for (const auto& [from, to, link] : acc.edges())
    key.append(std::to_string(from)).append(">").append(std::to_string(to)).append(":").append(std::to_string(link)).append(";");
  return key;
}

Router::Router(const hardware::Accelerator& acc, RoutingOptions options, std::shared_ptr<RouteMemo> memo)
    : acc_(acc), options_(options), memo_(memo ? std::move(memo) : std::make_shared<RouteMemo>()) {}

const std::vector<std::vector<int>>& Router::candidates(int source, int target) {
  const std::lock_guard lock(memo_->mutex);
  auto& known = memo_->candidates;
  if (auto it = known.find({source, target}); it != known.end()) return it->second;
  std::vector<std::vector<int>> out;
  if (source == target) {
    out.push_back({source});
  } else {
    auto first = acc_.shortest_path(source, target);
    if (first.empty())
      throw Error("no path from core " + std::to_string(source) + " to core " + std::to_string(target) +
                      " in accelerator '" + acc_.name + "'",
                  Location{.file = acc_.source_file});
    out.push_back(std::move(first));
    // At most one of Yen's paths repeats the BFS path, so k of them always fill the k - 1 others.
    for (auto& p : acc_.shortest_simple_paths(source, target, options_.k_paths)) {
      if (out.size() >= options_.k_paths) break;
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    }
  }
  return known.emplace(std::make_pair(source, target), std::move(out)).first->second;
}

const Router::Route& Router::route(const std::vector<int>& sources, const std::vector<int>& targets) {
  auto [it, added] = memo_->routes.try_emplace({sources, targets});
  if (!added) return it->second;
  Route& route = it->second;

  std::vector<std::pair<int, int>> pairs;
  for (int s : sources)
    for (int t : targets) pairs.emplace_back(s, t);
  std::stable_sort(pairs.begin(), pairs.end());

  // Candidate paths of every pair as edge indices (a simple path never repeats a directed edge).
  std::vector<const std::vector<std::vector<int>>*> options;
  std::vector<std::vector<std::vector<int>>> option_edges;
  for (auto [s, t] : pairs) {
    const auto& paths = candidates(s, t);
    options.push_back(&paths);
    auto& per_path = option_edges.emplace_back();
    for (const auto& p : paths) {
      auto& edges = per_path.emplace_back();
      for (std::size_t i = 0; i + 1 < p.size(); ++i)
        edges.push_back(static_cast<int>(acc_.edge_position(p[i], p[i + 1])));
    }
  }

  // Beam states share their history through an arena of (parent, option) steps.
  const std::size_t words = (acc_.edges().size() + 63) / 64;
  struct State {
    std::vector<std::uint64_t> used;
    std::int64_t score = 0;
    std::int64_t count = 0;
    int step = -1;  ///< arena index of the last choice, -1 before the first pair
  };
  struct Step {
    int parent = -1;
    int option = 0;
  };
  std::vector<Step> arena;
  std::vector<State> beam{State{std::vector<std::uint64_t>(words, 0), 0, 0, -1}};
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    std::vector<State> next;
    next.reserve(beam.size() * option_edges[p].size());
    for (const State& st : beam)
      for (std::size_t o = 0; o < option_edges[p].size(); ++o) {
        State grown = st;
        for (int e : option_edges[p][o]) {
          auto& word = grown.used[static_cast<std::size_t>(e) / 64];
          const std::uint64_t bit = std::uint64_t{1} << (static_cast<std::size_t>(e) % 64);
          if (word & bit) continue;
          word |= bit;
          ++grown.score;  // every edge weighs 1 (the reference's offchip_mem_penalty 1)
          ++grown.count;
        }
        arena.push_back(Step{st.step, static_cast<int>(o)});
        grown.step = static_cast<int>(arena.size()) - 1;
        next.push_back(std::move(grown));
      }
    std::stable_sort(next.begin(), next.end(), [](const State& a, const State& b) {
      return a.score != b.score ? a.score < b.score : a.count < b.count;
    });
    if (next.size() > options_.beam_width) next.resize(options_.beam_width);
    beam = std::move(next);
  }

  const State& best = beam.front();
  route.hops = best.score;
  route.paths.resize(pairs.size());
  for (int s = best.step, p = static_cast<int>(pairs.size()) - 1; s >= 0; s = arena[static_cast<std::size_t>(s)].parent, --p)
    route.paths[static_cast<std::size_t>(p)] =
        (*options[static_cast<std::size_t>(p)])[static_cast<std::size_t>(arena[static_cast<std::size_t>(s)].option)];
  for (const auto& path : route.paths)
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      const int link = acc_.edge(path[i], path[i + 1]);
      if (std::find(route.links.begin(), route.links.end(), link) == route.links.end()) route.links.push_back(link);
    }
  return route;
}

TransferPlan Router::plan(const std::vector<int>& sources, const std::vector<int>& targets, std::int64_t bits) {
  const std::lock_guard lock(memo_->mutex);
  const Route& r = route(sources, targets);
  TransferPlan plan;
  plan.sources = sources;
  plan.targets = targets;
  plan.links = r.links;
  plan.hops = r.hops;
  plan.paths = r.paths;
  if (!plan.links.empty()) {
    plan.min_bandwidth = acc_.links().at(static_cast<std::size_t>(plan.links.front())).bandwidth;
    for (int l : plan.links)
      plan.min_bandwidth = std::min(plan.min_bandwidth, acc_.links().at(static_cast<std::size_t>(l)).bandwidth);
    plan.latency = static_cast<std::int64_t>(std::ceil(static_cast<double>(bits) / plan.min_bandwidth));
  }
  return plan;
}

TransferPlan multicast_plan(const hardware::Accelerator& acc, const std::vector<int>& sources,
                            const std::vector<int>& targets, std::int64_t bits) {
  Router router(acc);
  return router.plan(sources, targets, bits);
}

}  // namespace stream::schedule
