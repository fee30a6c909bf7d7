#include "stream/pipeline/run.hpp"

#include <algorithm>
#include <chrono>
#include <deque>

#include "finite_figures.hpp"
#include "group_pass.hpp"
#include "layout_pass.hpp"
#include "stream/ir/checked.hpp"
#include "stream/ir/name_order.hpp"
#include "stream/pipeline/fusion_groups.hpp"
#include "stream/schedule/group_structure.hpp"

namespace stream::pipeline {

namespace {

// Some group, and every group with an allocation (optimal, or time-limited with a solution).
bool all_solved(const std::vector<GroupResult>& groups) {
  return !groups.empty() && std::all_of(groups.begin(), groups.end(), [](const GroupResult& g) { return g.allocation.solved(); });
}

std::vector<std::string> cut_points(const Workload& w, const RunSpec& s) {
  switch (s.cut_mode) {
    case CutMode::None: return {};
    case CutMode::Auto: return size_capped_cut_points(w, determine_fusion_cut_points(w));
    case CutMode::PerLayer: return per_layer_cut_points(w);
    case CutMode::Explicit: return s.cut_points;
  }
  return {};
}

// Each group checked, its errors naming it.
std::vector<Workload> checked(std::vector<Workload> groups) {
  for (std::size_t k = 0; k < groups.size(); ++k) {
    try {
      schedule::check_group_structure(groups[k]);
    } catch (const Error& e) {
      throw Error("fusion group " + std::to_string(k) + ": " + e.message(), e.where(), e.kind());
    }
  }
  return groups;
}

// A mapping's fusion groups: its fused groups when it has two or more, else the whole workload.
// A mapping of the automatic path's workload puts it in name order first, as that path does,
// unless the caller did (the workload then keeps its Softmax whole: --no-decompose).
std::vector<Workload> mapped_groups(const Workload& given, const RunSpec& spec) {
  const mapping::Mapping m = spec.mapping ? mapping::load_mapping_file(*spec.mapping) : *spec.mapping_data;
  const bool reorder = m.workload == mapping::MappedWorkload::AutomaticPath && spec.order == WorkloadOrder::ByName;
  const Workload workload = reorder ? in_name_order(given) : given;
  if (m.fused_groups.size() >= 2) return checked(split_fusion_groups(workload, mapped_cut_points(workload, m)));
  try {
    schedule::check_group_structure(workload);
  } catch (const Error& e) {
    throw Error("with a mapping file the whole workload is one fusion group: " + e.message(), e.where(), e.kind());
  }
  return {workload};
}

using run_clock = std::chrono::steady_clock;
double run_seconds(run_clock::time_point t0) { return std::chrono::duration<double>(run_clock::now() - t0).count(); }

// The values of the kept pass and the layout plan, folded into the result; the DMA conversions'
// cycles and energy add to the totals.
RunResult fold(LayoutPass done, const RunSpec& spec) {
  RunResult r;
  r.groups = std::move(done.pass.groups);
  r.total_latency = done.pass.total_latency;
  r.total_energy = done.pass.total_energy;
  for (const auto& d : done.dma_conversions) {
    r.total_latency = checked_add(r.total_latency, d.cost.cycles, "the run's total latency");
    r.total_energy += d.cost.energy;
  }
  r.edp = r.total_energy * static_cast<double>(r.total_latency);
  check_finite(r.total_energy, "run's total energy", "the run");
  check_finite(r.edp, "run's energy-delay product", "the run");
  r.reused_allocations = done.pass.reused;
  r.cast = spec.cast;
  r.layout = {spec.layout, std::move(done.choices), done.first_pass_latency, std::move(done.dma_conversions)};
  return r;
}

}  // namespace

bool RunResult::solved() const { return all_solved(groups); }

std::vector<Workload> checked_fusion_groups(const Workload& workload, const RunSpec& spec) {
  const auto& nodes = workload.nodes();
  if (std::none_of(nodes.begin(), nodes.end(), [](const Node& n) { return n.has_iteration_space(); }))
    throw Error("the workload has no computation node (only graph inputs, outputs and layout ops): nothing to schedule");
  if (spec.has_mapping()) return mapped_groups(workload, spec);
  // The automatic path follows the reference's name-keyed re-sequencing (ir/name_order.hpp).
  const Workload ordered = spec.order == WorkloadOrder::ByName ? in_name_order(workload) : workload;
  return checked(split_fusion_groups(ordered, cut_points(ordered, spec)));
}

RunResult run(const Workload& workload, const hardware::Accelerator& acc, const RunSpec& spec, const RunEnv& env) {
  const auto t_run = run_clock::now();
  RunContext ctx(acc, spec, env);
  auto t0 = run_clock::now();
  std::deque<GroupJob> jobs;
  for (auto& w : checked_fusion_groups(workload, spec)) jobs.push_back({std::move(w)});
  const double grouping_s = run_seconds(t0);
  GroupPass first = run_groups(std::move(jobs), ctx);
  first.timings.grouping_time_s += grouping_s;
  const bool choose = spec.layout == layout::LayoutMode::Choose && !spec.costs_only && all_solved(first.groups);
  LayoutPass done = choose ? choose_layouts(std::move(first), ctx) : LayoutPass{std::move(first), {}, 0, {}};
  RunTimings timings = std::move(done.pass.timings);
  RunResult result = fold(std::move(done), spec);
  timings.wall_time_s = run_seconds(t_run);
  if (env.timings != nullptr) *env.timings = std::move(timings);
  return result;
}

}  // namespace stream::pipeline
