// The bars of one steady-state iteration, for the pictures (schedule.svg, report.html): every
// compute node on each core of its group for its active latency, every routed transfer on each
// link of its chosen plan for its contribution to its slot (A / R), both from the start of their
// slot. Times are in clock cycles from the start of the iteration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "resources.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report::detail {

struct Bar {
  std::size_t row = 0;   ///< index into Timeline::rows
  std::size_t node = 0;  ///< steady-state node index
  bool transfer = false;
  int slot = 0;
  double start = 0, duration = 0;  ///< cycles
  std::string label;
};

struct Timeline {
  std::vector<Resource> rows;
  std::vector<std::int64_t> slot_start;  ///< per slot, plus the iteration's end last
  std::vector<Bar> bars;                 ///< node order, then row order
};

inline Timeline timeline(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  Timeline t;
  t.rows = resources(g, acc);
  const auto& a = g.allocation;
  t.slot_start.assign(a.slot_latency.size() + 1, 0);
  for (std::size_t s = 0; s < a.slot_latency.size(); ++s) t.slot_start[s + 1] = t.slot_start[s] + a.slot_latency[s];
  if (!a.solved()) return t;
  const auto& nodes = g.schedule.nodes;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    if (n.slot < 0) continue;
    const bool transfer = n.kind == schedule::SsKind::Transfer;
    if (!transfer && n.kind != schedule::SsKind::Compute) continue;
    if (transfer && a.plan[i] < 0) continue;
    const auto& on = transfer ? n.plans[static_cast<std::size_t>(a.plan[i])].links : n.cores;
    for (std::size_t k = 0; k < t.rows.size(); ++k) {
      if (t.rows[k].is_core == transfer || std::find(on.begin(), on.end(), t.rows[k].id) == on.end()) continue;
      Bar b;
      b.row = k;
      b.node = i;
      b.transfer = transfer;
      b.slot = n.slot;
      b.start = static_cast<double>(t.slot_start[static_cast<std::size_t>(n.slot)]);
      b.duration = transfer ? a.transfer_contribution[i] : static_cast<double>(n.active_latency);
      b.label = n.name;
      t.bars.push_back(std::move(b));
    }
  }
  return t;
}

}  // namespace stream::report::detail
