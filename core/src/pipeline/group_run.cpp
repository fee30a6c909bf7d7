#include "group_run.hpp"

#include <chrono>

#include "memory_fallback.hpp"
#include "stream/allocate/solver.hpp"
#include "stream/cost/estimate_costs.hpp"
#include "stream/mapping/group_mapping.hpp"
#include "stream/out_of_memory.hpp"
#include "stream/pipeline/structural_key.hpp"

namespace stream::pipeline {

namespace {

using group_clock = std::chrono::steady_clock;
double seconds_since(group_clock::time_point t0) { return std::chrono::duration<double>(group_clock::now() - t0).count(); }

allocate::AllocateOptions allocate_options(const RunContext& ctx, allocate::Diagnosis diagnosis) {
  allocate::AllocateOptions ao;
  ao.solve.time_limit_s = ctx.spec.time_limit_s;
  ao.solve.threads = ctx.spec.threads;
  ao.constraints = ctx.spec.constraints;
  ao.nb_cols_to_use = ctx.spec.nb_cols_to_use;
  // Only a group's final answer keeps its model: a fallback attempt's would be stale.
  ao.mps_on_failure = ctx.spec.keep_infeasible_models && diagnosis == allocate::Diagnosis::Full;
  ao.diagnosis = diagnosis;
  ao.latency_level_only = ctx.spec.latency_level_only;
  return ao;
}

// The allocation of the group's schedule: an earlier identical problem's optimum when there is
// one, else solved (its clocks into `clocks`; remembered when optimal).
allocate::Allocation allocate_group(const GroupResult& g, RunContext& ctx, Attempt& at, allocate::SolveClocks& clocks) {
  const auto ao = allocate_options(ctx, ctx.fallback ? allocate::Diagnosis::Memory : allocate::Diagnosis::Full);
  std::string key;
  if (ctx.spec.deduplicate) {
    key = allocation_key(g.schedule, ao);
    if (const auto* earlier = ctx.solved(key)) {
      at.reused = true;
      return *earlier;
    }
  }
  auto a = allocate::solve(g.schedule, ctx.acc, ctx.solver(), ao, &clocks);
  if (ctx.spec.deduplicate && a.solved() && a.status == allocate::SolveStatus::Optimal) ctx.remember(key, a);
  return a;
}

// The schedule and allocation of an attempt whose cost table is made.
void schedule_and_allocate(GroupOutcome& out, RunContext& ctx, const std::string& tag) {
  GroupResult& g = out.result;
  Attempt& at = g.attempts.back();
  AttemptClocks& clocks = out.clocks.clocks.back();
  auto t0 = group_clock::now();
  g.schedule = in_step("schedule", [&] {
    return schedule::steady_state(g.tiled, g.costs, ctx.acc, &ctx.router(), ctx.spec.nb_cols_to_use, ctx.spec.compat);
  });
  clocks.schedule_time_s = seconds_since(t0);
  ctx.say(tag + ": " + std::to_string(g.schedule.max_slot + 1) + " slots; solving the allocation");
  t0 = group_clock::now();
  allocate::SolveClocks solves;
  g.allocation = in_step("allocation", [&] { return allocate_group(g, ctx, at, solves); });
  clocks.solve_time_s = seconds_since(t0);
  clocks.milp = solves.solves;
  out.clocks.allocation = std::move(solves);
  at.status = allocate::name(g.allocation.status);
  at.capacity_proved = g.allocation.capacity_proved;
}

// One attempt on g's current mapping: tile, cost, schedule, allocate.
void attempt(GroupOutcome& out, RunContext& ctx, const std::string& tag) {
  GroupResult& g = out.result;
  AttemptClocks& clocks = out.clocks.clocks.back();
  auto t0 = group_clock::now();
  g.tiled = in_step("tiling", [&] { return tiling::tile(g.workload, g.mapping); });
  clocks.tiling_time_s = seconds_since(t0);
  ctx.say(tag + ": " + std::to_string(g.workload.computation_nodes().size()) + " compute nodes, " +
          std::to_string(g.tiled.iterations()) + " steady-state iterations; costing");
  t0 = group_clock::now();
  g.costs = in_step("cost", [&] {
    return cost::estimate_costs(g.tiled, ctx.acc,
                          {ctx.spec.threads, cost::kDefaultLpfLimit, ctx.spec.cost_backends, &ctx.cache().costs(), ctx.spec.cost_profile});
  });
  clocks.cost_time_s = seconds_since(t0);
  out.clocks.cost_time_s += clocks.cost_time_s;
  if (!ctx.spec.costs_only) schedule_and_allocate(out, ctx, tag);
}

mapping::AutoMappingOptions automatic_options(const RunSpec& s) {
  mapping::AutoMappingOptions o;
  o.intra_core_tiling = s.intra_core_tiling;
  o.compat = s.compat;
  o.choices = s.node_choices;
  return o;
}

// The group's first mapping: a conversion group's automatic one, the mapping file's, or the
// automatic one.
GroupOutcome first_mapping(GroupJob job, const RunContext& ctx) {
  GroupOutcome out;
  GroupResult& g = out.result;
  g.index = job.index;
  g.split_from = job.split_from;
  g.workload = std::move(job.workload);
  g.converts = std::move(job.converts);
  Attempt first;
  const auto t0 = group_clock::now();
  const auto& s = ctx.spec;
  g.mapping = !g.converts.empty() ? mapping::automatic_mapping(g.workload, ctx.acc, {}, {}, mapping::kDefaultFillFraction,
                                                                 &first.tile_cap_reached)
              : s.mapping         ? mapping::read_mapping(*s.mapping, g.workload, ctx.acc)
              : s.mapping_data    ? mapping::read_mapping(*s.mapping_data, g.workload, ctx.acc)
                                  : mapping::automatic_mapping(g.workload, ctx.acc, automatic_options(s), &first.tile_cap_reached);
  g.attempts.push_back(std::move(first));
  out.clocks.clocks.push_back({.mapping_time_s = seconds_since(t0)});
  return out;
}

void adopt(GroupOutcome& out, Remap remap) {
  GroupResult& g = out.result;
  g.mapping = std::move(remap.mapping);
  g.fill_fraction = remap.fill_fraction;
  g.excluded_cores = std::move(remap.excluded_cores);
  g.attempts.push_back({.change = std::move(remap.change), .tile_cap_reached = remap.tile_cap_reached});
  out.clocks.clocks.push_back({.mapping_time_s = remap.mapping_time_s});
}

}  // namespace

GroupOutcome attempt_group(GroupJob job, RunContext& ctx) {
  const auto t0 = group_clock::now();
  GroupOutcome out = first_mapping(std::move(job), ctx);
  GroupResult& g = out.result;
  const std::string tag = "group " + std::to_string(g.index);
  MemoryFallback fallback(ctx.acc, ctx.spec.compat, ctx.spec.node_choices);
  for (;;) {
    Attempt& at = g.attempts.back();
    at.fill_fraction = g.fill_fraction;
    at.excluded_cores = g.excluded_cores;
    attempt(out, ctx, tag);
    if (at.reused) ++out.reused;
    if (ctx.spec.costs_only || !ctx.fallback || !failed_on_memory(g.allocation)) break;
    auto remapped = fallback.next(g, g.attempts.back().tile_cap_reached);
    if (!remapped) break;
    ctx.say(tag + ": infeasible, core memory too small; " + remapped->change);
    adopt(out, std::move(*remapped));
  }
  out.clocks.attempts = g.attempts;
  out.clocks.wall_time_s = seconds_since(t0);
  return out;
}

void finish_group(GroupOutcome& out, RunContext& ctx, const std::string& tag) {
  GroupResult& g = out.result;
  const auto t0 = group_clock::now();
  if (ctx.fallback && !g.allocation.solved()) {  // out of options: explain the last attempt in full
    AttemptClocks& clocks = out.clocks.clocks.back();
    allocate::SolveClocks solves;
    g.allocation = allocate::solve(g.schedule, ctx.acc, ctx.solver(), allocate_options(ctx, allocate::Diagnosis::Full), &solves);
    clocks.milp.insert(clocks.milp.end(), solves.solves.begin(), solves.solves.end());
    out.clocks.allocation = std::move(solves);
    clocks.solve_time_s += seconds_since(t0);
    g.attempts.back().status = allocate::name(g.allocation.status);
  }
  const auto tr = group_clock::now();
  if (g.allocation.solved()) {
    g.energy = group_energy(g.schedule, g.allocation, g.costs, ctx.acc);
    g.memory_accesses = estimate_memory_accesses(g.schedule, g.allocation, ctx.acc);
    if (ctx.spec.layout == layout::LayoutMode::Choose || layout::layouts_matter(g.workload, ctx.acc))
      g.layout_prices = layout::layout_prices(g.schedule, g.allocation, ctx.acc);
  }
  out.clocks.results_time_s = seconds_since(tr);
  out.clocks.attempts = g.attempts;
  out.clocks.wall_time_s += seconds_since(t0);
  if (!ctx.spec.costs_only)
    ctx.say(tag + ": latency " + std::to_string(g.allocation.total_latency) + " (" + allocate::name(g.allocation.status) + ")");
}

GroupOutcome run_group(GroupJob job, RunContext& ctx, const std::string& tag) {
  GroupOutcome out = attempt_group(std::move(job), ctx);
  finish_group(out, ctx, tag);
  return out;
}

}  // namespace stream::pipeline
