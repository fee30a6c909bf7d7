#include "stream/pipeline/metrics.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

#include "stream/ir/checked.hpp"
#include "stream/ir/op_kinds.hpp"

namespace stream::pipeline {

namespace {

std::optional<double> ratio(double num, double den) {
  if (num == 0 || den == 0) return std::nullopt;
  return num / den;
}

std::int64_t untiled_macs(const Workload& w, std::size_t node) {
  return checked_product(w.loop_sizes(node), [&] { return "node '" + w.node(node).name + "' (MAC count)"; });
}

void add_mip_gap(GroupMetrics& m, const allocate::Allocation& a) {
  if (a.level_objectives.empty() || a.level_bounds.size() != a.level_objectives.size()) return;
  const double primal = a.level_objectives.back(), bound = a.level_bounds.back();
  m.objective = primal;
  if (primal != 0 && std::isfinite(bound)) m.mip_gap = std::abs(primal - bound) / std::abs(primal);
}

}  // namespace

std::int64_t peak_macs_per_cycle(const hardware::Accelerator& acc) {
  std::int64_t peak = 0;
  for (int id : acc.graph_cores()) {
    const auto& c = acc.core(id);
    if (id == acc.offchip_core_id || c.kind() != hardware::CoreKind::Compute) continue;
    // An aie2 tile has no operational array: the reference's peak is 0 there, so an AIE run's
    // end-to-end utilisation is undefined (aie-and-defaults §5), not macs over one unit per tile.
    if (!c.is_zigzag()) continue;
    const bool mac = !c.operator_types ||
                     std::any_of(c.operator_types->begin(), c.operator_types->end(), is_mac_type);
    if (mac) peak += c.total_unit_count();
  }
  return peak;
}

GroupMetrics group_metrics(const GroupResult& g, const hardware::Accelerator& acc) {
  GroupMetrics m;
  std::map<std::string, std::string> type_of;
  for (std::size_t i : g.workload.computation_nodes()) type_of[g.workload.node(i).name] = g.workload.node(i).type;
  for (const auto& n : g.schedule.nodes) {
    if (n.kind != schedule::SsKind::Compute) continue;
    auto it = g.costs.find(n.name);
    if (it == g.costs.end() || it->second.empty()) continue;
    const auto& entry = it->second.front();
    const auto lat = static_cast<double>(n.active_latency);
    m.sums.weight += lat;
    if (!entry.is_estimate()) {
      m.sums.weighted_mac += entry.mac_spatial_utilization * lat;
      m.min_mac_spatial_utilization =
          std::min(m.min_mac_spatial_utilization.value_or(std::numeric_limits<double>::infinity()), entry.mac_spatial_utilization);
    } else if (is_mac_type(type_of[n.name])) {
      m.degenerate = true;
      m.degenerate_nodes.push_back(n.name);
    }
  }
  for (std::size_t i : g.workload.computation_nodes())
    if (is_mac_type(g.workload.node(i).type))
      m.total_mac_ops = checked_add(m.total_mac_ops, untiled_macs(g.workload, i), "the workload's total MAC count");
  m.sums.mac_ops = m.total_mac_ops;
  m.sums.latency = g.allocation.total_latency;
  m.peak_macs_per_cycle = peak_macs_per_cycle(acc);
  m.mac_spatial_utilization = m.sums.weight == 0 ? 0 : m.sums.weighted_mac / m.sums.weight;
  m.end_to_end_mac_utilization = ratio(static_cast<double>(m.total_mac_ops),
                                       static_cast<double>(m.peak_macs_per_cycle) * static_cast<double>(m.sums.latency));
  add_mip_gap(m, g.allocation);
  return m;
}

RunMetrics run_metrics(const RunResult& r, const hardware::Accelerator& acc) {
  RunMetrics out;
  UtilisationSums total;
  for (const auto& g : r.groups) {
    out.groups.push_back(group_metrics(g, acc));
    const auto& s = out.groups.back().sums;
    total.weighted_mac += s.weighted_mac;
    total.weight += s.weight;
    total.mac_ops = checked_add(total.mac_ops, s.mac_ops, "the run's total MAC count");
    out.max_group_latency = std::max(out.max_group_latency, g.allocation.total_latency);
    out.degenerate = out.degenerate || out.groups.back().degenerate;
  }
  out.mac_spatial_utilization = total.weight == 0 ? 0 : total.weighted_mac / total.weight;
  out.end_to_end_mac_utilization = ratio(static_cast<double>(total.mac_ops),
                                         static_cast<double>(peak_macs_per_cycle(acc)) * static_cast<double>(r.total_latency));
  out.memory = memory_use(r, acc);
  return out;
}

}  // namespace stream::pipeline
