#include "report_data.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "lanes.hpp"
#include "stream/pipeline/memory_use.hpp"
#include "timeline.hpp"

namespace stream::report::detail {

namespace {

using json = nlohmann::ordered_json;
using schedule::SsKind;

// Rows, slots and bars with lanes. A bar reserves at least 1/600 of the iteration on its lane,
// the width the page draws it at least at full view, so drawn bars of one lane never overlap.
json schedule_data(const pipeline::GroupResult& g, const Timeline& t) {
  const double P = std::max<double>(static_cast<double>(g.allocation.latency_per_iteration), 1);
  std::vector<int> lane(t.bars.size(), 0);
  json rows = json::array();
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    std::vector<std::size_t> mine;
    std::vector<Interval> spans;
    for (std::size_t b = 0; b < t.bars.size(); ++b)
      if (t.bars[b].row == k) {
        mine.push_back(b);
        spans.push_back({t.bars[b].start, t.bars[b].start + std::max(t.bars[b].duration, P / 600)});
      }
    const auto lanes = assign_lanes(spans);
    for (std::size_t j = 0; j < mine.size(); ++j) lane[mine[j]] = lanes[j];
    rows.push_back({{"label", t.rows[k].label}, {"kind", t.rows[k].is_core ? "core" : "link"}, {"lanes", lane_count(lanes)}});
  }
  json bars = json::array();
  for (std::size_t b = 0; b < t.bars.size(); ++b) {
    const auto& bar = t.bars[b];
    bars.push_back({{"row", bar.row}, {"lane", lane[b]}, {"start", bar.start}, {"dur", bar.duration}, {"name", bar.label},
                    {"kind", bar.transfer ? "transfer" : "compute"}, {"slot", bar.slot}});
  }
  json slots = json::array();
  for (std::size_t s = 0; s + 1 < t.slot_start.size(); ++s)
    slots.push_back({{"start", t.slot_start[s]}, {"latency", g.allocation.slot_latency[s]}});
  return {{"rows", rows}, {"bars", bars}, {"slots", slots}};
}

json memory_data(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  json cores = json::array();
  for (const auto& [c, occ] : pipeline::slot_occupancy(g))
    cores.push_back({{"core", c}, {"label", "core " + std::to_string(c) + " [" + acc.core(c).name + "]"},
                     {"capacity_bits", acc.core(c).memory_capacity()}, {"reserved_bits", occ.reserved_bits},
                     {"occupancy_bits", occ.bits}});
  return cores;
}

json cost_data(const pipeline::GroupResult& g) {
  std::vector<int> core_ids;
  for (const auto& [name, entries] : g.costs)
    for (const auto& e : entries)
      if (std::find(core_ids.begin(), core_ids.end(), e.core_id) == core_ids.end()) core_ids.push_back(e.core_id);
  std::sort(core_ids.begin(), core_ids.end());
  json nodes = json::array();
  for (std::size_t i : g.tiled.workload.computation_nodes()) {
    const Node& node = g.tiled.workload.node(i);
    auto it = g.costs.find(node.name);
    if (it == g.costs.end()) continue;
    json cells = json::array();
    for (int c : core_ids) {
      auto e = std::find_if(it->second.begin(), it->second.end(), [&](const auto& x) { return x.core_id == c; });
      cells.push_back(e == it->second.end() ? json(nullptr)
                                            : json{{"latency_cycles", e->latency_total}, {"energy_pJ", e->energy_total},
                                                   {"fallback", e->is_fallback()}});
    }
    nodes.push_back({{"name", node.name}, {"type", node.type}, {"cells", cells}});
  }
  return {{"cores", core_ids}, {"nodes", nodes}};
}

// Where a slot's binding contributor runs: its cores, or its plan's links by their one name
// (a transfer within one core uses no link, and says so rather than leaving the cell empty).
std::string contributor_place(const schedule::SsNode& n, int plan, const hardware::Accelerator& acc) {
  std::string where;
  if (plan < 0) {
    for (int c : n.cores) where += (where.empty() ? "core " : ", ") + std::to_string(c);
    return where;
  }
  const auto& p = n.plans[static_cast<std::size_t>(plan)];
  for (int l : p.links) where += (where.empty() ? "" : ", ") + acc.link_name(l);
  if (!where.empty()) return where;
  for (int c : p.targets) where += (where.empty() ? "no link: within core " : ", ") + std::to_string(c);
  return where.empty() ? "no link" : where;
}

// A transfer binds "off-chip" when it reads or writes the off-chip core, not merely because its
// bus also reaches DRAM: a core-to-core transfer on a shared bus is on-chip traffic.
bool moves_offchip(const schedule::TransferPlan& p, const hardware::Accelerator& acc) {
  auto is_offchip = [&](int c) { return c == acc.offchip_core_id; };
  return acc.offchip_core_id >= 0 &&
         (std::any_of(p.sources.begin(), p.sources.end(), is_offchip) || std::any_of(p.targets.begin(), p.targets.end(), is_offchip));
}

json bottleneck_data(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  const auto& ss = g.schedule;
  const auto& a = g.allocation;
  json out = json::array();
  for (int s = 0; s <= ss.max_slot && s < static_cast<int>(a.slot_latency.size()); ++s) {
    json best = {{"slot", s}, {"latency_cycles", a.slot_latency[static_cast<std::size_t>(s)]}, {"kind", "none"},
                 {"node", "-"}, {"resource", "-"}, {"contribution_cycles", 0.0}};
    double top = -1;
    for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
      const auto& n = ss.nodes[i];
      if (n.slot != s) continue;
      const bool transfer = n.kind == SsKind::Transfer && a.plan[i] >= 0;
      if (!transfer && n.kind != SsKind::Compute) continue;
      const double v = transfer ? a.transfer_contribution[i] : static_cast<double>(n.active_latency);
      if (v <= top) continue;
      top = v;
      const int plan = transfer ? a.plan[i] : -1;
      best["kind"] = !transfer ? "compute" : moves_offchip(n.plans[static_cast<std::size_t>(plan)], acc) ? "off-chip" : "link";
      best["node"] = n.name;
      best["resource"] = contributor_place(n, plan, acc);
      best["contribution_cycles"] = v;
    }
    out.push_back(best);
  }
  return out;
}

json layer_names(const Workload& w) {
  json names = json::array();
  for (std::size_t i : w.computation_nodes()) names.push_back(w.node(i).name);
  return names;
}

}  // namespace

json group_report_data(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  const auto& a = g.allocation;
  json actions = json::array();
  for (const auto& at : g.attempts)
    if (!at.change.empty()) actions.push_back(at.change);
  json j = {{"index", g.index},
            {"status", allocate::name(a.status)},
            {"iterations", g.schedule.iterations},
            {"latency_per_iteration_cycles", a.latency_per_iteration},
            {"overlap_cycles", a.overlap},
            {"total_latency_cycles", a.total_latency},
            {"memory_fallback_actions", actions},
            {"layers", layer_names(g.workload)}};
  if (!a.solved()) return j;
  const auto t = timeline(g, acc);
  j["schedule"] = schedule_data(g, t);
  j["memory"] = memory_data(g, acc);
  j["costs"] = cost_data(g);
  j["bottleneck"] = bottleneck_data(g, acc);
  return j;
}

}  // namespace stream::report::detail
