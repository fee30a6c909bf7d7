#include "group_pass.hpp"

#include <chrono>
#include <optional>

#include "finite_figures.hpp"
#include "memory_fallback.hpp"
#include "stream/ir/checked.hpp"
#include "stream/out_of_memory.hpp"

namespace stream::pipeline {

namespace {

using pass_clock = std::chrono::steady_clock;
double pass_seconds(pass_clock::time_point t0) { return std::chrono::duration<double>(pass_clock::now() - t0).count(); }

// A fused group that cannot fit: one group per layer (each through the fallback on its own).
std::optional<std::vector<Workload>> cut(const GroupResult& g, RunContext& ctx, GroupPass& pass) {
  if (!ctx.fallback || !failed_on_memory(g.allocation) || g.split_from >= 0) return std::nullopt;
  const auto t0 = pass_clock::now();
  auto parts = per_layer_groups(g.workload);
  pass.timings.grouping_time_s += pass_seconds(t0);
  if (parts)
    ctx.say("group " + std::to_string(g.index) + ": infeasible, core memory too small; cutting it into " +
            std::to_string(parts->size()) + " groups, one per layer");
  return parts;
}

bool per_layer_check_applies(const GroupResult& g, const RunContext& ctx) {
  return ctx.spec.per_layer_check && ctx.fallback && ctx.spec.cut_mode == CutMode::Auto && g.split_from < 0 &&
         g.converts.empty() && g.allocation.solved();
}

// The parts' latencies summed, -1 when one has no allocation (the rest are not run).
std::int64_t run_layers(std::vector<Workload>& parts, const GroupResult& g, RunContext& ctx, std::vector<SupersededRun>& checks) {
  std::int64_t total = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    GroupOutcome p = attempt_group({std::move(parts[k]), g.index, g.index, {}}, ctx);
    total = !p.result.allocation.solved() ? -1 : checked_add(total, p.result.allocation.total_latency, "a latency");
    checks.push_back({std::string(kPerLayerCheck), "group_" + std::to_string(g.index) + " layer " + std::to_string(k), std::move(p.clocks)});
    if (total < 0) break;
  }
  return total;
}

}  // namespace

std::int64_t per_layer_latency(const GroupResult& g, RunContext& ctx, std::vector<SupersededRun>& checks) {
  if (!per_layer_check_applies(g, ctx)) return -1;
  auto parts = per_layer_groups(g.workload);
  if (!parts) return -1;
  ctx.quiet = true;
  std::int64_t total = -1;
  try {
    total = run_layers(*parts, g, ctx, checks);
  } catch (const OutOfMemory&) {  // the environment's: the run stops as it would anyway
    ctx.quiet = false;
    throw;
  } catch (const Error&) {
    total = -1;
  }
  ctx.quiet = false;
  return total >= 0 && total < g.allocation.total_latency ? total : -1;
}

GroupPass run_groups(std::deque<GroupJob> jobs, RunContext& ctx) {
  GroupPass pass;
  int automatic_group = -1;  // index among the groups before any fallback split
  while (!jobs.empty()) {
    GroupJob job = std::move(jobs.front());
    jobs.pop_front();
    if (job.split_from < 0 && job.converts.empty()) ++automatic_group;
    job.index = static_cast<int>(pass.groups.size());
    GroupOutcome g = attempt_group(std::move(job), ctx);
    pass.reused += g.reused;
    if (auto parts = cut(g.result, ctx, pass)) {
      for (auto it = parts->rbegin(); it != parts->rend(); ++it) jobs.push_front({std::move(*it), 0, automatic_group, {}});
      pass.timings.cut_groups.push_back({automatic_group, g.result.workload.computation_nodes().size(), std::move(g.clocks)});
      continue;
    }
    const std::string tag = "group " + std::to_string(g.result.index);
    finish_group(g, ctx, tag);
    g.result.per_layer_latency = per_layer_latency(g.result, ctx, pass.timings.superseded_runs);
    check_finite(g.result, tag);
    pass.total_latency = checked_add(pass.total_latency, g.result.allocation.total_latency, "the run's total latency");
    pass.total_energy += g.result.energy.total();
    pass.groups.push_back(std::move(g.result));
    pass.timings.groups.push_back(std::move(g.clocks));
  }
  return pass;
}

}  // namespace stream::pipeline
