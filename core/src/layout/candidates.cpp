#include "stream/layout/candidates.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "stream/layout/dma_conversion.hpp"
#include "stream/layout/prices.hpp"

namespace stream::layout {

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

std::vector<Layout> blocked_layouts(const Workload& group, const tiling::TiledGroup& tiled, std::size_t node,
                                    const Tensor& tensor) {
  std::vector<Layout> out;
  if (group.node(node).mapping_of(tensor) == nullptr) return out;
  const auto tile = tiling::tensor_shape_for_node(group, node, tensor, tiled.workload.loop_sizes(node));
  const auto walk = walk_layout(group, tiled, node, tensor).order_for(tensor.rank());
  for (std::size_t a = 0; a < tensor.rank(); ++a) {
    const std::int64_t t = tile.at(a), extent = tensor.shape[a];
    if (t <= 1 || t >= extent || extent % t != 0) continue;
    Layout l;
    l.order = walk;
    l.order.push_back(static_cast<int>(a));
    l.block = AxisBlock{static_cast<int>(a), t};
    out.push_back(std::move(l));
  }
  return out;
}

namespace {

// Where a tensor is written and read by computation nodes over the groups.
struct Uses {
  TensorPtr tensor;
  std::vector<std::pair<std::size_t, std::size_t>> producers, readers;  // (group, node)
};

std::map<std::string, Uses> tensor_uses(const std::vector<ScheduledGroup>& groups) {
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

// Who can convert: a compute core that accepts the conversion's type, a strided DMA engine.
struct Engines {
  bool core = false, dma = false;
};

Engines engines_of(const hardware::Accelerator& acc) {
  const auto compute = acc.compute_cores();
  return {std::any_of(compute.begin(), compute.end(), [&](int c) { return acc.core(c).accepts(kLayoutConversionType); }),
          !dma_conversion_links(acc).empty()};
}

// The tensor's off-chip transfers over every group on `side`, priced under `layout`.
TransferPrice transfers(const std::vector<ScheduledGroup>& groups, const hardware::Accelerator& acc, const std::string& tensor,
                        const Layout& layout, TransferSide side) {
  TransferPrice p;
  for (const auto& g : groups) {
    const auto q = tensor_transfer_price(g.schedule, g.allocation, acc, tensor, layout, side);
    p.cycles += q.cycles;
    p.energy += q.energy;
  }
  return p;
}

// The distinct layouts the tensor's nodes prefer, in option order: the model's, the producers'
// walks and blocked walks, then the readers'.
std::vector<std::pair<std::string, Layout>> preferred_layouts(const Uses& u, const std::vector<ScheduledGroup>& groups) {
  const Tensor& t = *u.tensor;
  std::vector<std::pair<std::string, Layout>> out{{"model", t.layout}};
  auto add = [&](std::string from, const Layout& l) {
    for (const auto& o : out)
      if (o.second.same_as(l, t.rank())) return;
    out.emplace_back(std::move(from), l);
  };
  auto node = [&](const char* role, const std::pair<std::size_t, std::size_t>& at) {
    const auto& g = groups[at.first];
    const std::string name = std::string(role) + g.workload.node(at.second).name;
    add(name, walk_layout(g.workload, g.tiled, at.second, t));
    for (const auto& b : blocked_layouts(g.workload, g.tiled, at.second, t)) add(name + " blocked", b);
  };
  for (const auto& p : u.producers) node("producer ", p);
  for (const auto& r : u.readers) node("reader ", r);
  return out;
}

LayoutOption plain(std::string from, const Layout& l, const TransferPrice& p) {
  LayoutOption o;
  o.from = std::move(from);
  o.layout = o.written = l;
  o.transfer_cycles = p.cycles;
  o.transfer_energy = p.energy;
  return o;
}

// The conversions of `source` into `to` the hardware can do, priced but for a core's group run.
void add_conversions(LayoutChoice& c, const Tensor& t, const std::string& from, const Layout& source, const Layout& to,
                     const TransferPrice& p, const Engines& engines, const hardware::Accelerator& acc) {
  LayoutOption o = plain(from, to, p);
  o.written = source;
  if (engines.core) {
    o.conversion = Conversion::Core;
    c.options.push_back(o);
  }
  if (!engines.dma) return;
  const auto cost = dma_conversion_cost(acc, t.shape, bits(t.dtype), source, to);
  if (!cost) return;
  o.conversion = Conversion::Dma;
  o.conversion_cycles = cost->cycles;
  o.conversion_energy = cost->energy;
  o.conversion_priced = true;
  o.dma = cost;
  c.options.push_back(std::move(o));
}

LayoutChoice options_of(const Uses& u, const std::vector<ScheduledGroup>& groups, const hardware::Accelerator& acc,
                        const Engines& engines) {
  const Tensor& t = *u.tensor;
  LayoutChoice c{t.name, t.shape, {}, 0};
  auto price = [&](const Layout& l, TransferSide side) { return transfers(groups, acc, t.name, l, side); };
  if (u.readers.empty()) {  // a graph output: its caller reads the model's order
    c.options.push_back(plain("model", t.layout, price(t.layout, TransferSide::Both)));
    return c;
  }
  const auto layouts = preferred_layouts(u, groups);
  const bool input = u.producers.empty();
  // Without a conversion: any layout of a computed tensor (its producer writes it so), the
  // model's of a graph input or constant.
  for (const auto& [from, l] : layouts)
    if (!input || l.same_as(t.layout, t.rank())) c.options.push_back(plain(from, l, price(l, TransferSide::Both)));
  // With one: an input from the model's layout into each other; a computed tensor from its
  // producer's order into each reader's.
  Layout source = t.layout;
  std::string prefix;
  if (!input) {
    const auto [g, n] = u.producers.front();
    source = walk_layout(groups[g].workload, groups[g].tiled, n, t);
    prefix = "producer " + groups[g].workload.node(n).name + " -> ";
  }
  const auto writes = price(source, TransferSide::Writes);
  for (const auto& [from, l] : layouts) {
    if (l.same_as(source, t.rank()) || (!input && !from.starts_with("reader "))) continue;
    TransferPrice p = price(l, TransferSide::Reads);
    p.cycles += writes.cycles;
    p.energy += writes.energy;
    add_conversions(c, t, prefix + from, source, l, p, engines, acc);
  }
  return c;
}

}  // namespace

std::vector<LayoutChoice> layout_candidates(const std::vector<ScheduledGroup>& groups, const hardware::Accelerator& acc) {
  const auto uses = tensor_uses(groups);
  const Engines engines = engines_of(acc);
  std::vector<LayoutChoice> out;
  std::set<std::string> seen;
  for (const auto& g : groups)
    for (const auto& p : layout_prices(g.schedule, g.allocation, acc)) {
      if (!seen.insert(p.tensor).second) continue;
      const auto it = uses.find(p.tensor);
      if (it == uses.end()) continue;
      out.push_back(options_of(it->second, groups, acc, engines));
    }
  return out;
}

}  // namespace stream::layout
