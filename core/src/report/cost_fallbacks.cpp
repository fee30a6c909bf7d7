#include "stream/report/cost_fallbacks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "stream/ir/cast.hpp"
#include "stream/ir/op_kinds.hpp"

namespace stream::report {

namespace {

// The cores each compute node of the group's steady state runs on, by node name.
std::map<std::string, const schedule::SsNode*> scheduled_nodes(const pipeline::GroupResult& g) {
  std::map<std::string, const schedule::SsNode*> out;
  for (const auto& n : g.schedule.nodes)
    if (n.kind == schedule::SsKind::Compute) out.emplace(n.name, &n);
  return out;
}

bool runs_on(const schedule::SsNode* n, int core) {
  return n != nullptr && std::find(n->cores.begin(), n->cores.end(), core) != n->cores.end();
}

// The estimated share f_g of one group's scheduled compute cycles (cost_fallbacks.hpp).
double group_latency_fraction(const pipeline::GroupResult& g, const CostFallbacks& f) {
  std::set<std::string> resting;
  for (const auto& e : f.fallbacks)
    if (e.scheduled) resting.insert(e.node);
  double all = 0, estimated = 0;
  for (const auto& n : g.schedule.nodes) {
    if (n.kind != schedule::SsKind::Compute) continue;
    const auto cycles = static_cast<double>(n.active_latency);
    all += cycles;
    if (resting.count(n.name) > 0) estimated += cycles;
  }
  return all > 0 ? estimated / all : 0.0;
}

double estimate_fraction(double part, double whole) { return whole > 0 ? part / whole : 0.0; }

// An f32 or f64 tensor among the node's operands: what a deployment casts (ir/cast.hpp).
bool has_wide_float(const Node& n) {
  auto wide = [](const TensorPtr& t) { return t && is_floating_point(t->dtype) && bits(t->dtype) >= 32; };
  return std::any_of(n.inputs.begin(), n.inputs.end(), wide) || std::any_of(n.outputs.begin(), n.outputs.end(), wide);
}

// The reasons cost/fallback_reason.cpp gives when a memory or port is narrower than an element.
bool narrow_hardware(const CostFallback& e) {
  return e.reason.find("sized for narrower types") != std::string::npos ||
         e.reason.find("no loop ordering keeps the operands") != std::string::npos;
}

}  // namespace

std::size_t CostFallbacks::scheduled() const {
  return static_cast<std::size_t>(
      std::count_if(fallbacks.begin(), fallbacks.end(), [](const CostFallback& e) { return e.scheduled; }));
}

CostFallbacks cost_fallbacks(const pipeline::GroupResult& g) {
  CostFallbacks out;
  const Workload& w = g.tiled.workload;
  const auto nodes = scheduled_nodes(g);
  const double iterations = static_cast<double>(g.schedule.iterations);
  for (std::size_t i : w.computation_nodes()) {
    auto it = g.costs.find(w.node(i).name);
    if (it == g.costs.end()) continue;
    const auto ss = nodes.find(it->first);
    const schedule::SsNode* node = ss == nodes.end() ? nullptr : ss->second;
    for (const auto& e : it->second) {
      ++out.entries;
      const bool used = runs_on(node, e.core_id);
      out.scheduled_entries += used ? 1 : 0;
      if (!e.is_fallback()) continue;
      out.fallbacks.push_back({g.index, it->first, w.node(i).type, e.core_id, e.reason, e.detail, used,
                               has_wide_float(w.node(i))});
      // The compute energy counts every scheduled pair's entry once per iteration (energy.hpp).
      if (used) out.estimated_energy += e.energy_total * iterations;
    }
  }
  out.latency_share = group_latency_fraction(g, out);
  out.energy_share = estimate_fraction(out.estimated_energy, g.energy.total());
  return out;
}

CostFallbacks cost_fallbacks(const pipeline::RunResult& r) {
  CostFallbacks out;
  double estimated_cycles = 0;
  for (const auto& g : r.groups) {
    auto part = cost_fallbacks(g);
    out.entries += part.entries;
    out.scheduled_entries += part.scheduled_entries;
    out.estimated_energy += part.estimated_energy;
    estimated_cycles += part.latency_share * static_cast<double>(g.allocation.total_latency);
    out.fallbacks.insert(out.fallbacks.end(), part.fallbacks.begin(), part.fallbacks.end());
  }
  out.latency_share = estimate_fraction(estimated_cycles, static_cast<double>(r.total_latency));
  out.energy_share = estimate_fraction(out.estimated_energy, r.total_energy);
  return out;
}

double share_percent(double share) { return std::round(share * 10000.0) / 100.0; }

std::string fallback_note(const CostFallbacks& f) {
  if (f.fallbacks.empty()) return "";
  std::ostringstream s;
  s << f.count() << " of " << f.entries << " (node, core) costs are ideal-cycle estimates, not per-core model figures ("
    << f.scheduled() << " used by the schedule), carrying " << share_percent(f.latency_share) << " % of the latency and "
    << share_percent(f.energy_share) << " % of the energy" << cast_hint(f);
  return s.str();
}

std::string cast_hint(const CostFallbacks& f) {
  const bool applies = std::any_of(f.fallbacks.begin(), f.fallbacks.end(),
                                   [](const CostFallback& e) { return e.wide_float && narrow_hardware(e); });
  if (!applies) return "";
  return "; the model computes in fp32 and the hardware is sized for narrower types: try --cast bf16 (or int8), as a "
         "deployment compiler casts it";
}

std::string estimate_reasons_file(bool group_files) {
  return group_files ? "core_cost_lut.yaml"
                     : "summary.yaml's estimate_reasons (--summary-only writes no per-group core_cost_lut.yaml)";
}

std::string fallback_warning(const CostFallbacks& f, std::size_t listed, const std::string& see) {
  if (f.fallbacks.empty()) return "";
  std::ostringstream s;
  s << fallback_note(f) << "; see " << see << ":";
  for (std::size_t k = 0; k < f.fallbacks.size() && k < listed; ++k) {
    const auto& e = f.fallbacks[k];
    s << "\n  group " << e.group << " node '" << e.node << "' on core " << e.core_id;
  }
  if (f.fallbacks.size() > listed) s << "\n  ... and " << f.fallbacks.size() - listed << " more";
  std::map<std::string, std::size_t> reasons;
  for (const auto& e : f.fallbacks) ++reasons[e.reason];
  s << "\n  reasons:";
  for (const auto& [reason, n] : reasons) s << "\n    " << n << " x " << reason;
  return s.str();
}

std::optional<CostFallback> first_mac_estimate(const CostFallbacks& f) {
  const auto it = std::find_if(f.fallbacks.begin(), f.fallbacks.end(), [](const CostFallback& e) { return is_mac_type(e.op_type); });
  if (it == f.fallbacks.end()) return std::nullopt;
  return *it;
}

std::string strict_message(const CostFallback& e) {
  return std::string(kStrictPrefix) + "group " + std::to_string(e.group) + " node '" + e.node + "' (" + e.op_type + ") on core " +
         std::to_string(e.core_id) + " would be an ideal-cycle estimate, not a per-core model figure: " + e.reason +
         (e.detail.empty() || e.detail == e.reason ? "" : " [" + e.detail + "]");
}

}  // namespace stream::report
