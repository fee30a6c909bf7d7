#include "stream/pipeline/layout_candidates.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "stream/pipeline/layout_prices.hpp"

namespace stream::pipeline {

Layout walk_layout(const Workload& group, const tiling::TiledGroup& tiled, std::size_t node, const Tensor& tensor) {
  const Node& n = group.node(node);
  const AffineMap* map = n.mapping_of(tensor);
  Layout out;
  if (map == nullptr) return out;
  const auto& full = group.loop_sizes(node);
  const auto& local = tiled.workload.loop_sizes(node);
  // The walk: tiled dims outermost, then the rest, each in dim order.
  std::vector<int> walk_position(full.size(), 0);
  int next = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t d = 0; d < full.size(); ++d)
      if ((d < local.size() && local[d] < full[d]) == (pass == 0)) walk_position[d] = next++;
  std::vector<std::pair<int, int>> keyed;  // (innermost walked position, axis)
  for (std::size_t a = 0; a < map->num_results(); ++a) {
    int key = -1;
    for (int d : map->results()[a].dims())
      if (static_cast<std::size_t>(d) < full.size() && full[static_cast<std::size_t>(d)] > 1)
        key = std::max(key, walk_position[static_cast<std::size_t>(d)]);
    keyed.emplace_back(key, static_cast<int>(a));
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [key, axis] : keyed) out.order.push_back(axis);
  if (out.is_row_major(tensor.rank())) out.order.clear();
  return out;
}

namespace {

// Where a tensor is written and read by computation nodes over the groups.
struct Uses {
  TensorPtr tensor;
  std::vector<std::pair<std::size_t, std::size_t>> producers, readers;  // (group, node)
};

std::map<std::string, Uses> tensor_uses(const std::vector<GroupResult>& groups) {
  std::map<std::string, Uses> uses;
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t i : groups[g].workload.computation_nodes()) {
      const Node& n = groups[g].workload.node(i);
      for (const auto& t : n.inputs) {
        auto& u = uses[t->name];
        u.tensor = t;
        u.readers.emplace_back(g, i);
      }
      for (const auto& t : n.outputs) {
        auto& u = uses[t->name];
        u.tensor = t;
        u.producers.emplace_back(g, i);
      }
    }
  return uses;
}

LayoutChoice options_of(const Uses& u, const std::vector<GroupResult>& groups, const hardware::Accelerator& acc) {
  const Tensor& t = *u.tensor;
  LayoutChoice c{t.name, t.shape, {}, 0};
  const bool input = u.producers.empty();
  auto add = [&](std::string from, Layout l) {
    for (const auto& o : c.options)
      if (o.layout.same_as(l, t.rank())) return;
    LayoutOption o{std::move(from), l, 0, input && !c.options.empty(), 0, 0};
    for (const auto& g : groups) o.transfer_cycles += tensor_transfer_cycles(g.schedule, g.allocation, acc, t.name, l);
    c.options.push_back(std::move(o));
  };
  add("model", t.layout);
  if (u.readers.empty()) return c;  // a graph output: its caller reads the model's order
  auto walk = [&](const std::pair<std::size_t, std::size_t>& at) {
    const auto& g = groups[at.first];
    return walk_layout(g.workload, g.tiled, at.second, t);
  };
  for (const auto& p : u.producers) add("producer " + groups[p.first].workload.node(p.second).name, walk(p));
  for (const auto& r : u.readers) add("reader " + groups[r.first].workload.node(r.second).name, walk(r));
  return c;
}

}  // namespace

std::vector<LayoutChoice> layout_candidates(const std::vector<GroupResult>& groups, const hardware::Accelerator& acc) {
  const auto uses = tensor_uses(groups);
  std::vector<LayoutChoice> out;
  std::set<std::string> seen;
  for (const auto& g : groups)
    for (const auto& p : layout_prices(g.schedule, g.allocation, acc)) {
      if (!seen.insert(p.tensor).second) continue;
      const auto it = uses.find(p.tensor);
      if (it == uses.end()) continue;
      out.push_back(options_of(it->second, groups, acc));
    }
  return out;
}

}  // namespace stream::pipeline
