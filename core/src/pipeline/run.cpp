#include "stream/pipeline/run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>

#include "stream/allocate/solver.hpp"
#include "stream/ir/checked.hpp"
#include "stream/ir/name_order.hpp"
#include "stream/out_of_memory.hpp"
#include "stream/cost/estimate_costs.hpp"
#include "stream/pipeline/fusion_groups.hpp"
#include "stream/pipeline/layout_candidates.hpp"
#include "stream/mapping/group_mapping.hpp"
#include "stream/pipeline/structural_key.hpp"
#include "stream/schedule/group_structure.hpp"
#include "layout_rewrite.hpp"
#include "memory_fallback.hpp"
#include "timed_solver.hpp"

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
    case CutMode::Auto: return size_capped_cut_points(w, determine_fusion_cut_points(w));
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

using clock = std::chrono::steady_clock;
double since(clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); }

}  // namespace

std::vector<Workload> checked_fusion_groups(const Workload& workload, const RunOptions& o) {
  const auto& nodes = workload.nodes();
  if (std::none_of(nodes.begin(), nodes.end(), [](const Node& n) { return n.has_iteration_space(); }))
    throw Error("the workload has no computation node (only graph inputs, outputs and layout ops): nothing to schedule");
  if (o.has_mapping()) {  // a mapping file describes one fused group: the whole workload
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

namespace {

// The caller's cache, trimmed before this run, or one of the run's own.
std::shared_ptr<RunCache> cache_for(const RunOptions& o) {
  if (!o.cache) return std::make_shared<RunCache>();
  o.cache->trim();
  return o.cache;
}

// One run: the groups in order, each through its attempts (the memory fallback), with the clocks
// of every phase kept for timings.* and identical allocation problems solved once.
class Runner {
 public:
  Runner(const hardware::Accelerator& acc, const RunOptions& o)
      : acc_(acc), o_(o), solver_(allocate::make_solver(o.solver)), timed_(*solver_), cache_(cache_for(o)),
        router_(acc, {}, cache_->routes(acc)),
        fallback_(!o.has_mapping() && !o.costs_only && o.memory_fallback && o.intra_core_tiling.empty()) {}

  RunResult run(const Workload& workload) {
    const auto t_run = clock::now();
    auto t0 = clock::now();
    std::deque<Pending> pending;
    for (auto& w : checked_fusion_groups(workload, o_)) pending.push_back({std::move(w)});
    r_.grouping_time_s += since(t0);
    run_pending(std::move(pending));
    r_.layout = o_.layout;
    if (o_.layout == LayoutMode::Choose && !o_.costs_only && r_.solved()) choose_layouts();
    r_.edp = r_.total_energy * static_cast<double>(r_.total_latency);
    check_finite(r_.total_energy, "run's total energy", "the run");
    check_finite(r_.edp, "run's energy-delay product", "the run");
    r_.wall_time_s = since(t_run);
    return std::move(r_);
  }

 private:
  struct Pending {
    Workload workload;
    int split_from = -1;
    std::string converts;  ///< a conversion group: the tensor it converts (automatic mapping)
  };

  // The groups in order, each through its attempts, added to r_.
  void run_pending(std::deque<Pending> pending) {
    int automatic_group = -1;  // index among the groups before any fallback split
    while (!pending.empty()) {
      Pending next = std::move(pending.front());
      pending.pop_front();
      if (next.split_from < 0 && next.converts.empty()) ++automatic_group;
      const auto t_group = clock::now();
      GroupResult g = run_group(std::move(next));
      if (auto parts = cut(g)) {
        for (auto it = parts->rbegin(); it != parts->rend(); ++it) pending.push_front({std::move(*it), automatic_group});
        r_.cut_groups.push_back({automatic_group, g.workload.computation_nodes().size(), std::move(g.attempts), since(t_group)});
        continue;
      }
      const std::string tag = "group " + std::to_string(g.index);
      finish(g, tag);
      g.wall_time_s = since(t_group);
      check_per_layer(g);  // its runs are timed on their own (superseded runs)
      check_finite(g, tag);
      r_.total_latency = checked_add(r_.total_latency, g.allocation.total_latency, "the run's total latency");
      r_.total_energy += g.energy.total();
      r_.groups.push_back(std::move(g));
    }
  }

  bool per_layer_check_applies(const GroupResult& g) const {
    return o_.per_layer_check && fallback_ && o_.cut_mode == CutMode::Auto && g.split_from < 0 && g.converts.empty() &&
           !g.allocation.slot_latency.empty();
  }

  // RunOptions::per_layer_check: the fused group's nodes run again as one group per layer, quietly
  // and off the run's figures (an identical allocation found here may be reused by a later group).
  // A part that fails, or throws, leaves the group unchecked.
  void check_per_layer(GroupResult& g) {
    if (!per_layer_check_applies(g)) return;
    auto parts = per_layer_groups(g.workload);
    if (!parts) return;
    const auto reused = r_.reused_allocations;
    quiet_ = true;
    std::int64_t total = 0;
    try {
      for (auto& part : *parts) {
        const auto t0 = clock::now();
        GroupResult p = run_group({std::move(part), g.index, {}});
        total = p.allocation.slot_latency.empty() ? -1 : checked_add(total, p.allocation.total_latency, "a latency");
        r_.superseded_runs.push_back({std::string(kPerLayerCheck), "group_" + std::to_string(g.index) + " layer " +
                                      std::to_string(&part - parts->data()), std::move(p.attempts), since(t0), 0.0});
        if (total < 0) break;
      }
    } catch (const OutOfMemory&) {  // the environment's: the run stops as it would anyway
      quiet_ = false;
      throw;
    } catch (const Error&) {
      total = -1;
    }
    quiet_ = false;
    r_.reused_allocations = reused;
    if (total >= 0 && total < g.allocation.total_latency) g.per_layer_latency = total;
  }

  // `--layout choose` (layout_choice.hpp): price the options (a core conversion by a run of its
  // group), choose, and when anything changes schedule the first pass's groups again with the
  // choices.
  void choose_layouts() {
    auto t0 = clock::now();
    auto choices = layout_candidates(r_.groups, acc_);
    std::map<std::string, TensorPtr> tensors;
    for (const auto& g : r_.groups)
      for (const auto& t : g.workload.tensors()) tensors.emplace(t->name, t);
    r_.layout_choice_time_s += since(t0);
    for (auto& c : choices) {
      // A conversion takes cycles (it moves the tensor twice), so a core conversion whose transfers
      // alone do not beat the best option without one cannot win: its group is not run.
      std::int64_t plain = c.options.front().total();
      for (const auto& o : c.options)
        if (!o.converts()) plain = std::min(plain, o.total());
      for (auto& o : c.options)
        if (o.conversion == Conversion::Core && o.transfer_cycles < plain) price_conversion(*tensors.at(c.tensor), o);
      c.chosen = cheapest_option(c.options);
    }
    const bool change = std::any_of(choices.begin(), choices.end(), [](const LayoutChoice& c) { return c.changes(); });
    if (change) second_pass(choices, tensors);
    r_.layout_choices = std::move(choices);
  }

  // The conversion group's latency and energy into `o` (left unpriced when it has no allocation).
  void price_conversion(const Tensor& t, LayoutOption& o) {
    const std::string to = converted_name(t.name, o.layout, t.rank());
    const std::string key = to + " from " + o.written.str(t.rank());
    auto it = conversions_.find(key);
    if (it == conversions_.end()) {
      const auto t0 = clock::now();
      const auto from = make_tensor(t.name, t.dtype, t.shape, o.written);
      GroupResult g = run_group({conversion_group(from, o.layout), -1, t.name});
      finish(g, "conversion " + key);
      const double energy = g.allocation.slot_latency.empty() ? -1.0 : g.energy.total();
      it = conversions_.emplace(key, std::make_pair(g.allocation.total_latency, energy)).first;
      r_.superseded_runs.push_back({"conversion pricing", to, std::move(g.attempts), since(t0), g.results_time_s});
    }
    if (it->second.second < 0) return;
    o.conversion_cycles = it->second.first;
    o.conversion_energy = it->second.second;
    o.conversion_priced = true;
  }

  // The first pass's groups again (fused groups unchanged) with the chosen layouts, each core
  // conversion group just before the first group reading its output; then the DMA conversions.
  void second_pass(const std::vector<LayoutChoice>& choices, const std::map<std::string, TensorPtr>& tensors) {
    const auto t0 = clock::now();
    std::map<std::string, Rewrite> rewrites;
    std::vector<const LayoutChoice*> on_core, on_dma;
    for (const auto& c : choices) {
      const auto rw = rewrite_of(tensors.at(c.tensor), c);
      if (!rw.written && !rw.read) continue;
      rewrites[c.tensor] = rw;
      if (c.chosen_option().conversion == Conversion::Core) on_core.push_back(&c);
      if (c.chosen_option().conversion == Conversion::Dma) on_dma.push_back(&c);
    }
    auto pending = rewritten_groups(rewrites, std::move(on_core), tensors);
    restart(since(t0));
    say("layouts chosen: " + std::to_string(rewrites.size()) + " tensors change; scheduling again");
    run_pending(std::move(pending));
    for (const auto* c : on_dma) add_dma_conversion(*c, *tensors.at(c->tensor));
  }

  // The first pass's groups rewritten, with the core conversion groups inserted.
  std::deque<Pending> rewritten_groups(const std::map<std::string, Rewrite>& rewrites, std::vector<const LayoutChoice*> on_core,
                                       const std::map<std::string, TensorPtr>& tensors) const {
    std::deque<Pending> pending;
    for (const auto& g : r_.groups) {
      Workload w = with_tensors(g.workload, rewrites);
      for (auto it = on_core.begin(); it != on_core.end();) {
        const auto& rw = rewrites.at((*it)->tensor);
        if (!reads(w, rw.read->name)) {
          ++it;
          continue;
        }
        const auto& from = rw.written ? rw.written : tensors.at((*it)->tensor);
        pending.push_back({conversion_group(from, (*it)->chosen_option().layout), -1, (*it)->tensor});
        it = on_core.erase(it);
      }
      pending.push_back({std::move(w), g.split_from});
    }
    return pending;
  }

  // A fresh result for the second pass, keeping the first pass's clocks (its groups become
  // superseded runs) and what it shares with the second (grouping, cut groups, the first latency).
  void restart(double rewrite_time_s) {
    RunResult first = std::move(r_);
    r_ = RunResult{};
    r_.grouping_time_s = first.grouping_time_s;
    r_.cut_groups = std::move(first.cut_groups);
    r_.reused_allocations = first.reused_allocations;
    r_.layout = o_.layout;
    r_.first_pass_latency = first.total_latency;
    for (auto& g : first.groups)
      r_.superseded_runs.push_back({"first pass", "group_" + std::to_string(g.index), std::move(g.attempts), g.wall_time_s, g.results_time_s});
    for (auto& s : first.superseded_runs) r_.superseded_runs.push_back(std::move(s));
    r_.layout_choice_time_s = first.layout_choice_time_s + rewrite_time_s;
  }

  static bool reads(const Workload& w, const std::string& tensor) {
    for (std::size_t i : w.computation_nodes())
      for (const auto& t : w.node(i).inputs)
        if (t->name == tensor) return true;
    return false;
  }

  // A chosen DMA conversion into the run's list and totals, before the first group reading it.
  void add_dma_conversion(const LayoutChoice& c, const Tensor& t) {
    const auto& o = c.chosen_option();
    DmaConversion d{c.tensor, converted_name(c.tensor, o.layout, t.rank()), t.shape, o.written, o.layout, -1, *o.dma};
    for (const auto& g : r_.groups)
      if (reads(g.workload, d.to)) {
        d.before_group = g.index;
        break;
      }
    r_.total_latency = checked_add(r_.total_latency, d.cost.cycles, "the run's total latency");
    r_.total_energy += d.cost.energy;
    r_.dma_conversions.push_back(std::move(d));
  }

  void say(const std::string& s) const {
    if (o_.progress && !quiet_) o_.progress(s);
  }

  allocate::AllocateOptions allocate_options(int index, allocate::Diagnosis diagnosis) const {
    allocate::AllocateOptions ao;
    ao.solve.time_limit_s = o_.time_limit_s;
    ao.solve.threads = o_.threads;
    ao.constraints = o_.constraints;
    ao.nb_cols_to_use = o_.nb_cols_to_use;
    // Only a group's final answer writes its model: a fallback attempt's would be stale.
    if (!o_.failure_dir.empty() && diagnosis == allocate::Diagnosis::Full)
      ao.mps_on_failure = (o_.failure_dir / ("group_" + std::to_string(index)) / "model.mps").string();
    ao.diagnosis = diagnosis;
    return ao;
  }

  // The allocation of the group's schedule: an earlier identical problem's optimum when there is
  // one (every figure of an allocation is index-based and its solve deterministic), else solved.
  allocate::Allocation allocate(const GroupResult& g, const allocate::AllocateOptions& ao, Attempt& at) {
    std::string key;
    if (o_.deduplicate) {
      key = allocation_key(g.schedule, ao);
      if (auto it = solved_.find(key); it != solved_.end()) {
        at.reused = true;
        ++r_.reused_allocations;
        return it->second;
      }
    }
    auto a = allocate::solve(g.schedule, acc_, timed_, ao);
    at.milp = timed_.take(a.level_names, a.level_times_s.size());
    if (o_.deduplicate && !a.slot_latency.empty() && a.status == allocate::SolveStatus::Optimal) {
      auto& kept = solved_[key];
      kept = a;  // a reuse took no solver time of its own
      kept.solve_time_s = 0;
      std::fill(kept.level_times_s.begin(), kept.level_times_s.end(), 0.0);
    }
    return a;
  }

  // One attempt on g's current mapping: tile, cost, schedule, allocate.
  void attempt(GroupResult& g, const std::string& tag, Attempt& at) {
    auto t0 = clock::now();
    g.tiled = in_step("tiling", [&] { return tiling::tile(g.workload, g.mapping); });
    at.tiling_time_s = since(t0);
    say(tag + ": " + std::to_string(g.workload.computation_nodes().size()) + " compute nodes, " +
        std::to_string(g.tiled.iterations()) + " steady-state iterations; costing");
    t0 = clock::now();
    g.costs = in_step("cost", [&] {
      return cost::estimate_costs(g.tiled, acc_, {o_.threads, cost::kDefaultLpfLimit, o_.cost_backends, &cache_->costs(), o_.cost_profile});
    });
    at.cost_time_s = since(t0);
    g.cost_time_s += at.cost_time_s;
    if (o_.costs_only) return;
    t0 = clock::now();
    g.schedule = in_step("schedule", [&] { return schedule::steady_state(g.tiled, g.costs, acc_, &router_, o_.nb_cols_to_use, o_.compat); });
    at.schedule_time_s = since(t0);
    say(tag + ": " + std::to_string(g.schedule.max_slot + 1) + " slots; solving the allocation");
    t0 = clock::now();
    g.allocation = in_step("allocation", [&] {
      return allocate(g, allocate_options(g.index, fallback_ ? allocate::Diagnosis::Memory : allocate::Diagnosis::Full), at);
    });
    at.solve_time_s = since(t0);
    at.status = allocate::name(g.allocation.status);
    at.capacity_proved = g.allocation.capacity_proved;
  }

  // The group's first mapping: the mapping file's, or the automatic one.
  GroupResult first_mapping(Pending next) {
    GroupResult g;
    g.index = static_cast<int>(r_.groups.size());
    g.split_from = next.split_from;
    g.workload = std::move(next.workload);
    g.converts = std::move(next.converts);
    Attempt first;
    auto tm = clock::now();
    g.mapping = !g.converts.empty() ? mapping::automatic_mapping(g.workload, acc_, {}, {}, mapping::kDefaultFillFraction,
                                                                   &first.tile_cap_reached)
                : o_.mapping        ? mapping::read_mapping(*o_.mapping, g.workload, acc_)
                : o_.mapping_data ? mapping::read_mapping(*o_.mapping_data, g.workload, acc_)
                                  : mapping::automatic_mapping(g.workload, acc_, o_.intra_core_tiling, {}, mapping::kDefaultFillFraction,
                                               &first.tile_cap_reached, false, o_.compat);
    first.mapping_time_s = since(tm);
    g.attempts.push_back(std::move(first));
    return g;
  }

  static void adopt(GroupResult& g, Remap remap) {
    g.mapping = std::move(remap.mapping);
    g.fill_fraction = remap.fill_fraction;
    g.excluded_cores = std::move(remap.excluded_cores);
    Attempt again;
    again.change = std::move(remap.change);
    again.tile_cap_reached = remap.tile_cap_reached;
    again.mapping_time_s = remap.mapping_time_s;
    g.attempts.push_back(std::move(again));
  }

  // The group through its attempts: its first mapping, then the memory fallback's.
  GroupResult run_group(Pending next) {
    GroupResult g = first_mapping(std::move(next));
    const std::string tag = "group " + std::to_string(g.index);
    MemoryFallback fallback(acc_, o_.compat);
    for (;;) {
      Attempt& at = g.attempts.back();
      at.fill_fraction = g.fill_fraction;
      at.excluded_cores = g.excluded_cores;
      attempt(g, tag, at);
      if (o_.costs_only || !fallback_ || !failed_on_memory(g.allocation)) break;
      auto remapped = fallback.next(g, at.tile_cap_reached);
      if (!remapped) break;
      say(tag + ": infeasible, core memory too small; " + remapped->change);
      adopt(g, std::move(*remapped));
    }
    return g;
  }

  // A fused group that cannot fit: one group per layer (each through the fallback on its own).
  std::optional<std::vector<Workload>> cut(const GroupResult& g) {
    if (!fallback_ || !failed_on_memory(g.allocation) || g.split_from >= 0) return std::nullopt;
    const auto t0 = clock::now();
    auto parts = per_layer_groups(g.workload);
    r_.grouping_time_s += since(t0);
    if (parts)
      say("group " + std::to_string(g.index) + ": infeasible, core memory too small; cutting it into " +
          std::to_string(parts->size()) + " groups, one per layer");
    return parts;
  }

  // The group's answer: explained in full when out of options, else its energy and accesses.
  void finish(GroupResult& g, const std::string& tag) {
    if (fallback_ && g.allocation.slot_latency.empty()) {  // out of options: explain the last attempt in full
      Attempt& at = g.attempts.back();
      const auto ts = clock::now();
      g.allocation = allocate::solve(g.schedule, acc_, timed_, allocate_options(g.index, allocate::Diagnosis::Full));
      for (auto& s : timed_.take(g.allocation.level_names, g.allocation.level_times_s.size())) at.milp.push_back(std::move(s));
      at.solve_time_s += since(ts);
      at.status = allocate::name(g.allocation.status);
    }
    const auto tr = clock::now();
    if (!g.allocation.slot_latency.empty()) {
      g.energy = group_energy(g.schedule, g.allocation, g.costs, acc_);
      g.memory_accesses = estimate_memory_accesses(g.schedule, g.allocation, acc_);
    }
    g.results_time_s = since(tr);
    if (!o_.costs_only)
      say(tag + ": latency " + std::to_string(g.allocation.total_latency) + " (" + allocate::name(g.allocation.status) + ")");
  }

  const hardware::Accelerator& acc_;
  const RunOptions& o_;
  std::unique_ptr<allocate::MilpSolver> solver_;
  TimedSolver timed_;
  // Paths, plans and (node, core) costs repeat across groups and fallback attempts, and across
  // runs sharing the caller's cache: each is computed once.
  std::shared_ptr<RunCache> cache_;
  schedule::Router router_;
  bool fallback_;  ///< the memory fallback applies (memory_fallback.hpp): automatic mappings only
  bool quiet_ = false;  ///< no progress lines (the per-layer check's runs)
  std::unordered_map<std::string, allocate::Allocation> solved_;  ///< optimal allocations by problem
  std::map<std::string, std::pair<std::int64_t, double>> conversions_;  ///< latency, energy (-1: none) by converted name
  RunResult r_;
};

}  // namespace

RunResult run(const Workload& workload, const hardware::Accelerator& acc, const RunOptions& o) {
  return Runner(acc, o).run(workload);
}

}  // namespace stream::pipeline
