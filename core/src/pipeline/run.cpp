#include "stream/pipeline/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <optional>
#include <sstream>

#include "stream/allocate/solver.hpp"
#include "stream/ir/checked.hpp"
#include "stream/ir/name_order.hpp"
#include "stream/pipeline/estimate_costs.hpp"
#include "stream/pipeline/fusion_groups.hpp"
#include "stream/pipeline/group_mapping.hpp"
#include "stream/schedule/group_structure.hpp"

namespace stream::pipeline {

bool RunResult::solved() const {
  for (const auto& g : groups)
    if (g.allocation.slot_latency.empty()) return false;
  return !groups.empty();
}

namespace {

std::vector<std::string> cut_points(const Workload& w, const RunOptions& o) {
  switch (o.cut_mode) {
    case CutMode::None: return {};
    case CutMode::Auto: return determine_fusion_cut_points(w);
    case CutMode::PerLayer: return per_layer_cut_points(w);
    case CutMode::Explicit: return o.cut_points;
  }
  return {};
}

// A NaN or an infinity never reaches a result file: they come from hardware figures that are
// finite but whose products overflow a double (an access cost of 1e308 times a count), and a
// summary saying `energy: .nan` (or `inf`) with exit 0 reads as a result. Checked per cost entry
// and per group total; the error names the figure, the group and, for an entry, node and core.
void check_finite(double v, const std::string& what, const std::string& where) {
  if (std::isfinite(v)) return;
  throw Error(where + ": the " + what + " is " + (std::isnan(v) ? std::string("NaN") : std::string("infinite")) +
              " (a hardware cost or size so large that the figure overflows a double)");
}

void check_finite(const GroupResult& g, const std::string& tag) {
  for (const auto& [node, entries] : g.costs)
    for (const auto& e : entries) {
      const std::string where = tag + ", node '" + node + "' on core " + std::to_string(e.core_id);
      check_finite(e.latency_total, "per-core latency", where);
      check_finite(e.energy_total, "per-core energy", where);
      check_finite(e.mac_spatial_utilization, "MAC spatial utilisation", where);
    }
  check_finite(g.energy.compute, "compute energy", tag);
  check_finite(g.energy.transfer, "transfer energy", tag);
  check_finite(g.energy.offchip, "off-chip energy", tag);
  check_finite(g.energy.total(), "total energy", tag);
}

bool same_mapping(const tiling::GroupMapping& a, const tiling::GroupMapping& b) {
  if (a.nodes.size() != b.nodes.size() || a.intra_core_tiling.size() != b.intra_core_tiling.size()) return false;
  for (std::size_t i = 0; i < a.nodes.size(); ++i)
    if (a.nodes[i].cores != b.nodes[i].cores || a.nodes[i].inter_core_tiling != b.nodes[i].inter_core_tiling)
      return false;
  for (std::size_t i = 0; i < a.intra_core_tiling.size(); ++i) {
    const auto &x = a.intra_core_tiling[i], &y = b.intra_core_tiling[i];
    if (x.node != y.node || x.dim != y.dim || x.tile != y.tile) return false;
  }
  return true;
}

constexpr double kFillFraction = 0.5;    // the reference's capacity tiler
constexpr double kSmallestFill = 0.125;  // two halvings: transfer copies and double buffering

// The memory fallback's next mapping of a group whose last allocation failed on memory capacity,
// with a line saying what changed; nothing when no option is left. Updates g's fallback state.
std::optional<std::pair<tiling::GroupMapping, std::string>> next_fallback(GroupResult& g,
                                                                         const hardware::Accelerator& acc) {
  for (;;) {
    std::string what;
    if (g.fill_fraction > kSmallestFill) {
      g.fill_fraction /= 2;
      std::ostringstream line;
      line << "tiling finer (capacity tiler fill " << g.fill_fraction * 100 << "%)";
      what = line.str();
    } else {
      const auto before = g.excluded_cores;
      for (int c : g.allocation.blocking_cores)
        if (acc.core(c).operator_types &&
            std::find(g.excluded_cores.begin(), g.excluded_cores.end(), c) == g.excluded_cores.end())
          g.excluded_cores.push_back(c);
      if (g.excluded_cores == before) return std::nullopt;
      g.fill_fraction = kFillFraction;
      std::string cores;
      for (int c : g.excluded_cores) cores += (cores.empty() ? "" : ", ") + std::to_string(c);
      what = "mapping again without core(s) " + cores;
    }
    auto m = automatic_mapping(g.workload, acc, {}, g.excluded_cores, g.fill_fraction);
    if (!same_mapping(m, g.mapping)) return std::make_pair(std::move(m), what);
  }
}

}  // namespace

std::vector<Workload> checked_fusion_groups(const Workload& workload, const RunOptions& o) {
  const auto& nodes = workload.nodes();
  if (std::none_of(nodes.begin(), nodes.end(), [](const Node& n) { return n.has_iteration_space(); }))
    throw Error("the workload has no computation node (only graph inputs, outputs and layout ops): nothing to schedule");
  if (o.mapping) {  // a mapping file describes one fused group: the whole workload
    try {
      schedule::check_group_structure(workload);
    } catch (const Error& e) {
      throw Error("with a mapping file the whole workload is one fusion group: " + e.message(), e.where(), e.kind());
    }
    return {workload};
  }
  // The automatic path follows the reference's name-keyed re-sequencing (ir/name_order.hpp).
  Workload ordered = in_name_order(workload);
  if (o.expand) ordered = o.expand(ordered);
  auto groups = split_fusion_groups(ordered, cut_points(ordered, o));
  for (std::size_t k = 0; k < groups.size(); ++k) {
    try {
      schedule::check_group_structure(groups[k]);
    } catch (const Error& e) {
      throw Error("fusion group " + std::to_string(k) + ": " + e.message(), e.where(), e.kind());
    }
  }
  return groups;
}

RunResult run(const Workload& workload, const hardware::Accelerator& acc, const RunOptions& o) {
  using clock = std::chrono::steady_clock;
  auto say = [&](const std::string& s) {
    if (o.progress) o.progress(s);
  };
  const auto t_run = clock::now();
  const auto solver = allocate::make_solver(o.solver);
  schedule::Router router(acc);  // paths and plans repeat across groups and fallback attempts
  // Beyond the reference, which stops with InfeasibleAllocationError: when memory capacity alone
  // makes an automatically mapped group infeasible, tile it finer (the capacity tiler's fill
  // fraction halves, twice), then map it again without the specialised cores whose memory alone
  // blocks it (their work moves to the generic cores), and last cut a fused group into one group
  // per layer (docs/pipeline.md).
  const bool fallback = !o.mapping && !o.costs_only && o.memory_fallback && o.intra_core_tiling.empty();
  auto allocate_options = [&](int index, allocate::Diagnosis diagnosis) {
    allocate::AllocateOptions ao;
    ao.solve.time_limit_s = o.time_limit_s;
    ao.solve.threads = o.threads;
    // Only a group's final answer writes its model: a fallback attempt's would be stale.
    if (!o.failure_dir.empty() && diagnosis == allocate::Diagnosis::Full)
      ao.mps_on_failure = (o.failure_dir / ("group_" + std::to_string(index)) / "model.mps").string();
    ao.diagnosis = diagnosis;
    return ao;
  };
  auto memory_bound = [](const allocate::Allocation& a) {
    return a.slot_latency.empty() &&
           std::find(a.culprit_families.begin(), a.culprit_families.end(), "memory_capacity") != a.culprit_families.end();
  };

  struct Pending {
    Workload workload;
    int split_from = -1;
  };
  std::deque<Pending> pending;
  for (auto& w : checked_fusion_groups(workload, o)) pending.push_back({std::move(w)});
  RunResult r;
  int automatic_group = -1;  // index among the groups before any fallback split
  while (!pending.empty()) {
    Pending next = std::move(pending.front());
    pending.pop_front();
    if (next.split_from < 0) ++automatic_group;
    const auto t0 = clock::now();
    const int index = static_cast<int>(r.groups.size());
    const std::string tag = "group " + std::to_string(index);
    GroupResult g;
    g.index = index;
    g.split_from = next.split_from;
    g.workload = std::move(next.workload);
    g.mapping = o.mapping ? read_mapping(*o.mapping, g.workload, acc) : automatic_mapping(g.workload, acc, o.intra_core_tiling);
    for (;;) {
      g.tiled = tiling::tile(g.workload, g.mapping);
      say(tag + ": " + std::to_string(g.workload.computation_nodes().size()) + " compute nodes, " +
          std::to_string(g.tiled.iterations()) + " steady-state iterations; costing");
      const auto t_costs = clock::now();
      g.costs = estimate_costs(g.tiled, acc, {o.threads, 6, o.cost_backends});
      g.cost_time_s += std::chrono::duration<double>(clock::now() - t_costs).count();
      if (o.costs_only) break;
      g.schedule = schedule::steady_state(g.tiled, g.costs, acc, &router);
      say(tag + ": " + std::to_string(g.schedule.max_slot + 1) + " slots; solving the allocation");
      g.allocation = allocate::solve(
          g.schedule, acc, *solver, allocate_options(index, fallback ? allocate::Diagnosis::Memory : allocate::Diagnosis::Full));
      if (!fallback || !memory_bound(g.allocation)) break;
      auto remapped = next_fallback(g, acc);
      if (!remapped) break;
      say(tag + ": infeasible, core memory too small; " + remapped->second);
      g.mapping = std::move(remapped->first);
    }
    if (fallback && memory_bound(g.allocation) && g.split_from < 0 && g.workload.computation_nodes().size() > 1) {
      auto parts = split_fusion_groups(g.workload, per_layer_cut_points(g.workload));
      if (parts.size() > 1) {
        say(tag + ": infeasible, core memory too small; cutting it into " + std::to_string(parts.size()) +
            " groups, one per layer");
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) pending.push_front({std::move(*it), automatic_group});
        continue;
      }
    }
    if (fallback && g.allocation.slot_latency.empty())  // out of options: explain the last attempt in full
      g.allocation = allocate::solve(g.schedule, acc, *solver, allocate_options(index, allocate::Diagnosis::Full));
    if (!g.allocation.slot_latency.empty()) {
      g.energy = group_energy(g.schedule, g.allocation, g.costs, acc);
      g.memory_accesses = estimate_memory_accesses(g.schedule, g.allocation, acc);
    }
    g.wall_time_s = std::chrono::duration<double>(clock::now() - t0).count();
    if (!o.costs_only)
      say(tag + ": latency " + std::to_string(g.allocation.total_latency) + " (" + allocate::name(g.allocation.status) + ")");
    check_finite(g, tag);
    r.total_latency = checked_add(r.total_latency, g.allocation.total_latency, "the run's total latency");
    r.total_energy += g.energy.total();
    r.groups.push_back(std::move(g));
  }
  r.edp = r.total_energy * static_cast<double>(r.total_latency);
  check_finite(r.total_energy, "run's total energy", "the run");
  check_finite(r.edp, "run's energy-delay product", "the run");
  r.wall_time_s = std::chrono::duration<double>(clock::now() - t_run).count();
  return r;
}

}  // namespace stream::pipeline
