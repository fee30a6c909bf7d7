#include "layout_pass.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <utility>

#include "stream/layout/candidates.hpp"
#include "stream/layout/choice.hpp"
#include "stream/layout/rewrite.hpp"

namespace stream::pipeline {

namespace {

using layout_clock = std::chrono::steady_clock;
double layout_seconds(layout_clock::time_point t0) { return std::chrono::duration<double>(layout_clock::now() - t0).count(); }

using Tensors = std::map<std::string, TensorPtr>;

// Conversion prices by converted name and source layout (latency, energy; energy -1: no
// allocation), so that a conversion two options share runs once.
using PricedConversions = std::map<std::string, std::pair<std::int64_t, double>>;

bool reads(const Workload& w, const std::string& tensor) {
  for (std::size_t i : w.computation_nodes())
    for (const auto& t : w.node(i).inputs)
      if (t->name == tensor) return true;
  return false;
}

// The conversion group's latency and energy into `o` (left unpriced when it has no allocation).
void price_conversion(const Tensor& t, layout::LayoutOption& o, RunContext& ctx, PricedConversions& priced, GroupPass& first) {
  const std::string to = layout::converted_name(t.name, o.layout, t.rank());
  const std::string key = to + " from " + o.written.str(t.rank());
  auto it = priced.find(key);
  if (it == priced.end()) {
    const auto from = make_tensor(t.name, t.dtype, t.shape, o.written);
    // Numbered as the group after the first pass's, as a group of the run would be.
    const int index = static_cast<int>(first.groups.size());
    GroupOutcome g = run_group({layout::conversion_group(from, o.layout), index, -1, t.name}, ctx, "conversion " + key);
    const double energy = !g.result.allocation.solved() ? -1.0 : g.result.energy.total();
    it = priced.emplace(key, std::make_pair(g.result.allocation.total_latency, energy)).first;
    first.reused += g.reused;
    first.timings.superseded_runs.push_back({"conversion pricing", to, std::move(g.clocks)});
  }
  if (it->second.second < 0) return;
  o.conversion_cycles = it->second.first;
  o.conversion_energy = it->second.second;
  o.conversion_priced = true;
}

// Every core conversion that could win priced by a run of its group, then the cheapest chosen.
void choose(std::vector<layout::LayoutChoice>& choices, const Tensors& tensors, RunContext& ctx, GroupPass& first) {
  PricedConversions priced;
  for (auto& c : choices) {
    for (auto& o : c.options)
      if (layout::worth_running(c, o)) price_conversion(*tensors.at(c.tensor), o, ctx, priced, first);
    c.chosen = layout::cheapest_option(c.options);
  }
}

// The first pass's groups rewritten, with the core conversion groups inserted.
std::deque<GroupJob> rewritten_groups(const std::vector<GroupResult>& groups, const std::map<std::string, layout::Rewrite>& rewrites,
                                      std::vector<const layout::LayoutChoice*> on_core, const Tensors& tensors) {
  std::deque<GroupJob> jobs;
  for (const auto& g : groups) {
    Workload w = layout::with_tensors(g.workload, rewrites);
    for (auto it = on_core.begin(); it != on_core.end();) {
      const auto& rw = rewrites.at((*it)->tensor);
      if (!reads(w, rw.read->name)) {
        ++it;
        continue;
      }
      const auto& from = rw.written ? rw.written : tensors.at((*it)->tensor);
      jobs.push_back({layout::conversion_group(from, (*it)->chosen_option().layout), 0, -1, (*it)->tensor});
      it = on_core.erase(it);
    }
    jobs.push_back({std::move(w), 0, g.split_from, {}});
  }
  return jobs;
}

// A chosen DMA conversion, before the first group reading it.
layout::DmaConversion dma_conversion(const layout::LayoutChoice& c, const Tensor& t, const std::vector<GroupResult>& groups) {
  const auto& o = c.chosen_option();
  layout::DmaConversion d{c.tensor, layout::converted_name(c.tensor, o.layout, t.rank()), t.shape, o.written, o.layout, -1, *o.dma};
  for (const auto& g : groups)
    if (reads(g.workload, d.to)) {
      d.before_group = g.index;
      break;
    }
  return d;
}

// The second pass's timings keep the first pass's clocks: its groups become superseded runs, and
// what the passes share (grouping, cut groups) carries over.
void carry_first_pass(RunTimings& second, RunTimings first) {
  second.grouping_time_s += first.grouping_time_s;
  second.layout_choice_time_s += first.layout_choice_time_s;
  std::vector<SupersededRun> runs;
  for (std::size_t i = 0; i < first.groups.size(); ++i)
    runs.push_back({"first pass", "group_" + std::to_string(i), std::move(first.groups[i])});
  for (auto& s : first.superseded_runs) runs.push_back(std::move(s));
  for (auto& s : second.superseded_runs) runs.push_back(std::move(s));
  second.superseded_runs = std::move(runs);
  for (auto& c : second.cut_groups) first.cut_groups.push_back(std::move(c));
  second.cut_groups = std::move(first.cut_groups);
}

// The first pass's groups again (fused groups unchanged) with the chosen layouts.
LayoutPass second_pass(GroupPass first, std::vector<layout::LayoutChoice> choices, const Tensors& tensors, RunContext& ctx) {
  const auto t0 = layout_clock::now();
  std::map<std::string, layout::Rewrite> rewrites;
  std::vector<const layout::LayoutChoice*> on_core, on_dma;
  for (const auto& c : choices) {
    const auto rw = layout::rewrite_of(tensors.at(c.tensor), c);
    if (!rw.written && !rw.read) continue;
    rewrites[c.tensor] = rw;
    if (c.chosen_option().conversion == layout::Conversion::Core) on_core.push_back(&c);
    if (c.chosen_option().conversion == layout::Conversion::Dma) on_dma.push_back(&c);
  }
  auto jobs = rewritten_groups(first.groups, rewrites, std::move(on_core), tensors);
  first.timings.layout_choice_time_s += layout_seconds(t0);
  ctx.say("layouts chosen: " + std::to_string(rewrites.size()) + " tensors change; scheduling again");
  LayoutPass out{run_groups(std::move(jobs), ctx), {}, first.total_latency, {}};
  out.pass.reused += first.reused;
  for (const auto* c : on_dma) out.dma_conversions.push_back(dma_conversion(*c, *tensors.at(c->tensor), out.pass.groups));
  carry_first_pass(out.pass.timings, std::move(first.timings));
  out.choices = std::move(choices);
  return out;
}

}  // namespace

LayoutPass choose_layouts(GroupPass first, RunContext& ctx) {
  const auto t0 = layout_clock::now();
  std::vector<layout::ScheduledGroup> scheduled;
  for (const auto& g : first.groups) scheduled.push_back({g.workload, g.tiled, g.schedule, g.allocation});
  auto choices = layout::layout_candidates(scheduled, ctx.acc);
  Tensors tensors;
  for (const auto& g : first.groups)
    for (const auto& t : g.workload.tensors()) tensors.emplace(t->name, t);
  first.timings.layout_choice_time_s += layout_seconds(t0);
  choose(choices, tensors, ctx, first);
  if (std::any_of(choices.begin(), choices.end(), [](const layout::LayoutChoice& c) { return c.changes(); }))
    return second_pass(std::move(first), std::move(choices), tensors, ctx);
  return {std::move(first), std::move(choices), 0, {}};
}

}  // namespace stream::pipeline
