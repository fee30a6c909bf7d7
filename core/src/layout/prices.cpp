#include "stream/layout/prices.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "stream/schedule/transfer_cost.hpp"
#include "stream/schedule/transfer_energy.hpp"

namespace stream::layout {

namespace {

bool touches(const std::vector<int>& cores, int core) { return std::find(cores.begin(), cores.end(), core) != cores.end(); }

// The compute node a transfer reads into (first reader of its first output) or writes from.
std::string endpoint(const schedule::SteadyState& ss, std::size_t transfer, bool to_offchip) {
  const auto& n = ss.nodes[transfer];
  if (to_offchip) {
    // Follow the producers back to a compute node (a staged write passes a memory core first).
    int t = n.inputs.front();
    for (int hops = 0; hops < 4 && t >= 0; ++hops) {
      const int p = ss.tensors[static_cast<std::size_t>(t)].producer;
      if (p < 0) break;
      if (ss.nodes[static_cast<std::size_t>(p)].kind == schedule::SsKind::Compute) return ss.nodes[static_cast<std::size_t>(p)].name;
      t = ss.nodes[static_cast<std::size_t>(p)].inputs.empty() ? -1 : ss.nodes[static_cast<std::size_t>(p)].inputs.front();
    }
    return n.name;
  }
  for (int out : n.outputs)
    for (const auto& m : ss.nodes)
      if (std::find(m.inputs.begin(), m.inputs.end(), out) != m.inputs.end()) return m.name;
  return n.name;
}

struct Moved {
  std::size_t node;
  schedule::TransferPlan plan;
  double fires;
  bool to_offchip;
};

TransferPrice price(const std::vector<Moved>& moves, const schedule::SsTensor& t, const Layout& layout,
                   const hardware::Accelerator& acc, TransferSide side) {
  double cycles = 0;
  TransferPrice out;
  for (const auto& m : moves) {
    if (side != TransferSide::Both && m.to_offchip != (side == TransferSide::Writes)) continue;
    schedule::TransferPlan p = m.plan;
    p.link_costs.clear();
    schedule::price_plan(p, acc, {t.shape, t.frame, layout, t.element_bits}, t.bits);
    cycles += static_cast<double>(p.latency) * m.fires;
    schedule::add_link_energy(out.energy, p, acc, static_cast<double>(t.bits), m.fires);
  }
  out.cycles = static_cast<std::int64_t>(std::llround(cycles));
  return out;
}

// The group's transfers of `origin` to or from the off-chip core, on their chosen plans.
std::vector<Moved> offchip_moves(const schedule::SteadyState& ss, const allocate::Allocation& a, const std::string& origin,
                                 int& tensor) {
  std::vector<Moved> moves;
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != schedule::SsKind::Transfer || a.plan[i] < 0) continue;
    if (ss.tensors[static_cast<std::size_t>(n.inputs.front())].origin != origin) continue;
    const auto& plan = n.plans[static_cast<std::size_t>(a.plan[i])];
    const bool to_off = touches(plan.targets, ss.offchip_core);
    if (!to_off && !touches(plan.sources, ss.offchip_core)) continue;
    tensor = n.inputs.front();
    moves.push_back({i, plan, schedule::transfer_fires(n, a.reuse_factor.at(static_cast<std::size_t>(n.outputs.front()))), to_off});
  }
  return moves;
}

}  // namespace

bool layouts_matter(const Workload& group, const hardware::Accelerator& acc) {
  const bool dma = std::any_of(acc.connectivity.begin(), acc.connectivity.end(), [](const auto& c) { return c.dma.has_value(); });
  if (dma) return true;
  const auto& ts = group.tensors();
  return std::any_of(ts.begin(), ts.end(), [](const auto& t) { return !t->layout.is_row_major(t->rank()); });
}

Layout box_preferred_layout(const std::vector<std::int64_t>& extents, const std::vector<std::int64_t>& frame) {
  Layout l;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t a = 0; a < extents.size(); ++a)
      if ((extents[a] < frame[a]) == (pass == 0)) l.order.push_back(static_cast<int>(a));
  if (l.is_row_major(extents.size())) l.order.clear();
  return l;
}

std::vector<TensorLayoutPrice> layout_prices(const schedule::SteadyState& ss, const allocate::Allocation& a,
                                             const hardware::Accelerator& acc) {
  std::vector<TensorLayoutPrice> out;
  if (a.plan.size() != ss.nodes.size()) return out;
  std::map<std::string, std::size_t> index;  // origin -> position in out
  std::vector<std::vector<Moved>> moves;
  std::vector<int> tensor_of;
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != schedule::SsKind::Transfer || a.plan[i] < 0) continue;
    const auto& plan = n.plans[static_cast<std::size_t>(a.plan[i])];
    const bool to_off = touches(plan.targets, ss.offchip_core);
    if (!to_off && !touches(plan.sources, ss.offchip_core)) continue;
    const int tid = n.inputs.front();
    const auto& t = ss.tensors[static_cast<std::size_t>(tid)];
    auto [it, fresh] = index.try_emplace(t.origin, out.size());
    if (fresh) {
      out.push_back({t.origin, t.frame, t.layout, {}, {}, 0});
      moves.emplace_back();
      tensor_of.push_back(tid);
    }
    out[it->second].transfers.push_back(n.name);
    moves[it->second].push_back({i, plan, schedule::transfer_fires(n, a.reuse_factor.at(static_cast<std::size_t>(n.outputs.front()))), to_off});
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    const auto& t = ss.tensors[static_cast<std::size_t>(tensor_of[k])];
    auto add = [&](std::string from, Layout l) {
      for (const auto& c : out[k].candidates)
        if (c.layout.same_as(l, t.frame.size())) return;
      out[k].candidates.push_back({std::move(from), l, price(moves[k], t, l, acc, TransferSide::Both).cycles});
    };
    add("model", t.layout);
    for (const auto& m : moves[k])
      add((m.to_offchip ? "producer " : "reader ") + endpoint(ss, m.node, m.to_offchip),
          box_preferred_layout(t.shape, t.frame));
    for (std::size_t c = 1; c < out[k].candidates.size(); ++c)
      if (out[k].candidates[c].cycles < out[k].candidates[out[k].cheapest].cycles) out[k].cheapest = c;
  }
  return out;
}

TransferPrice tensor_transfer_price(const schedule::SteadyState& ss, const allocate::Allocation& a,
                                    const hardware::Accelerator& acc, const std::string& tensor, const Layout& layout,
                                    TransferSide side) {
  if (a.plan.size() != ss.nodes.size()) return {};
  int tid = -1;
  const auto moves = offchip_moves(ss, a, tensor, tid);
  return tid < 0 ? TransferPrice{} : price(moves, ss.tensors[static_cast<std::size_t>(tid)], layout, acc, side);
}

}  // namespace stream::layout
