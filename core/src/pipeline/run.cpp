#include "stream/pipeline/run.hpp"

#include <chrono>

#include "stream/allocate/solver.hpp"
#include "stream/pipeline/estimate_costs.hpp"
#include "stream/pipeline/fusion_groups.hpp"
#include "stream/pipeline/group_mapping.hpp"

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

}  // namespace

RunResult run(const Workload& workload, const hardware::Accelerator& acc, const RunOptions& o) {
  using clock = std::chrono::steady_clock;
  auto say = [&](const std::string& s) {
    if (o.progress) o.progress(s);
  };
  const auto t_run = clock::now();
  const auto solver = allocate::make_solver(o.solver);
  RunResult r;
  // A mapping file describes one fused group: the whole workload.
  const auto groups = o.mapping ? std::vector<Workload>{workload} : split_fusion_groups(workload, cut_points(workload, o));
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const auto t0 = clock::now();
    GroupResult g;
    g.index = static_cast<int>(gi);
    g.workload = groups[gi];
    g.mapping = o.mapping ? read_mapping(*o.mapping, g.workload, acc) : automatic_mapping(g.workload, acc, o.intra_core_tiling);
    g.tiled = tiling::tile(g.workload, g.mapping);
    say("group " + std::to_string(gi) + ": " + std::to_string(g.workload.computation_nodes().size()) +
        " compute nodes, " + std::to_string(g.tiled.iterations()) + " steady-state iterations; costing");
    const auto t_costs = clock::now();
    g.costs = estimate_costs(g.tiled, acc, {o.threads, 6});
    g.cost_time_s = std::chrono::duration<double>(clock::now() - t_costs).count();
    if (o.costs_only) {
      g.wall_time_s = std::chrono::duration<double>(clock::now() - t0).count();
      r.groups.push_back(std::move(g));
      continue;
    }
    g.schedule = schedule::steady_state(g.tiled, g.costs, acc);
    allocate::AllocateOptions ao;
    ao.solve.time_limit_s = o.time_limit_s;
    ao.solve.threads = o.threads;
    if (!o.failure_dir.empty()) ao.mps_on_failure = (o.failure_dir / ("group_" + std::to_string(gi)) / "model.mps").string();
    say("group " + std::to_string(gi) + ": " + std::to_string(g.schedule.max_slot + 1) + " slots; solving the allocation");
    g.allocation = allocate::solve(g.schedule, acc, *solver, ao);
    if (!g.allocation.slot_latency.empty()) g.energy = group_energy(g.schedule, g.allocation, g.costs, acc);
    if (!g.allocation.slot_latency.empty()) g.memory_accesses = estimate_memory_accesses(g.schedule, g.allocation, acc);
    g.wall_time_s = std::chrono::duration<double>(clock::now() - t0).count();
    say("group " + std::to_string(gi) + ": latency " + std::to_string(g.allocation.total_latency) + " (" +
        allocate::name(g.allocation.status) + ")");
    r.total_latency += g.allocation.total_latency;
    r.total_energy += g.energy.total();
    r.groups.push_back(std::move(g));
  }
  r.edp = r.total_energy * static_cast<double>(r.total_latency);
  r.wall_time_s = std::chrono::duration<double>(clock::now() - t_run).count();
  return r;
}

}  // namespace stream::pipeline
