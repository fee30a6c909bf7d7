#include "stream/pipeline/memory_use.hpp"

#include <algorithm>
#include <cmath>

namespace stream::pipeline {

namespace {

using schedule::SsKind;

// The last slot in which tensor t is read (its producer's slot when nothing reads it later in the
// iteration: then it stays to the end).
int last_use(const schedule::SteadyState& ss, std::size_t t, int from) {
  int last = -1;
  for (const auto& n : ss.nodes)
    if (n.slot >= from && std::find(n.inputs.begin(), n.inputs.end(), static_cast<int>(t)) != n.inputs.end())
      last = std::max(last, n.slot);
  return last < 0 ? ss.max_slot : last;
}

CoreMemoryUse& entry_of(std::vector<CoreMemoryUse>& use, int core, const hardware::Accelerator& acc) {
  auto it = std::lower_bound(use.begin(), use.end(), core, [](const CoreMemoryUse& u, int c) { return u.core < c; });
  if (it != use.end() && it->core == core) return *it;
  const hardware::Core& hw = acc.core(core);
  CoreMemoryUse u;
  u.core = core;
  u.name = hw.name;
  u.capacity_bits = hw.memory_capacity();
  return *use.insert(it, std::move(u));
}

void add_group_peaks(std::vector<CoreMemoryUse>& use, const GroupResult& g, const hardware::Accelerator& acc) {
  for (const auto& [core, occ] : slot_occupancy(g)) {
    CoreMemoryUse& u = entry_of(use, core, acc);
    u.reserved_bits = std::max(u.reserved_bits, occ.reserved_bits);
    const auto peak = std::max_element(occ.bits.begin(), occ.bits.end());
    if (peak != occ.bits.end() && *peak > u.peak_bits) {
      u.peak_bits = *peak;
      u.peak_group = g.index;
      u.peak_slot = static_cast<int>(peak - occ.bits.begin());
    }
  }
}

// Each scheduled compute node's chosen mapping on each core of its core group.
void add_level_peaks(std::vector<CoreMemoryUse>& use, const GroupResult& g, const hardware::Accelerator& acc) {
  for (const auto& n : g.schedule.nodes) {
    if (n.kind != SsKind::Compute || n.source < 0) continue;
    const std::string& name = g.tiled.workload.node(static_cast<std::size_t>(n.source)).name;
    const auto costs = g.costs.find(name);
    for (int core : n.cores) {
      CoreMemoryUse& u = entry_of(use, core, acc);
      if (u.levels.empty())
        for (const auto& m : acc.core(core).memories) u.levels.push_back({m.name, m.size, 0, {}});
      if (costs == g.costs.end()) continue;
      const auto e = std::find_if(costs->second.begin(), costs->second.end(), [&](const auto& c) { return c.core_id == core; });
      if (e == costs->second.end()) continue;
      for (std::size_t m = 0; m < e->memory_bits.size() && m < u.levels.size(); ++m)
        if (e->memory_bits[m] > u.levels[m].peak_bits) u.levels[m] = {u.levels[m].memory, u.levels[m].capacity_bits, e->memory_bits[m], name};
    }
  }
}

}  // namespace

std::map<int, SlotOccupancy> slot_occupancy(const GroupResult& g) {
  const auto& ss = g.schedule;
  const auto& a = g.allocation;
  const std::size_t slots = a.slot_latency.size();
  std::map<int, SlotOccupancy> per_core;
  for (std::size_t t = 0; t < ss.tensors.size() && t < a.placement.size(); ++t) {
    const auto& ten = ss.tensors[t];
    if (ten.producer < 0 || ten.placements.empty()) continue;
    const auto& producer = ss.nodes[static_cast<std::size_t>(ten.producer)];
    if (producer.kind != SsKind::Compute && producer.kind != SsKind::Transfer) continue;
    const auto p = std::min<std::size_t>(static_cast<std::size_t>(std::max(a.placement[t], 0)), ten.placements.size() - 1);
    const double bits = std::ceil(static_cast<double>(a.tiles_on_chip[t]) * static_cast<double>(ten.memory_tile_bits()));
    const int from = std::max(producer.slot, 0), to = last_use(ss, t, from);
    for (int c : ten.placements[p]) {
      auto& occ = per_core[c];
      occ.bits.resize(slots, 0);
      occ.reserved_bits += bits;
      for (int s = from; s <= to && s < static_cast<int>(slots); ++s) occ.bits[static_cast<std::size_t>(s)] += bits;
    }
  }
  return per_core;
}

std::vector<CoreMemoryUse> memory_use(const RunResult& run, const hardware::Accelerator& accelerator) {
  std::vector<CoreMemoryUse> use;
  for (const auto& g : run.groups) {
    add_group_peaks(use, g, accelerator);
    add_level_peaks(use, g, accelerator);
  }
  return use;
}

const CoreMemoryUse* fullest_core(const std::vector<CoreMemoryUse>& use) {
  const CoreMemoryUse* best = nullptr;
  for (const auto& u : use)
    if (best == nullptr || u.share() > best->share()) best = &u;
  return best;
}

}  // namespace stream::pipeline
