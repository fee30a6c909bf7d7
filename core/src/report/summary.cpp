#include "stream/report/summary.hpp"

#include "stream/yaml/yaml_text.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "stream/report/cost_fallbacks.hpp"
#include "stream/report/timings.hpp"
#include "stream/io/utf8.hpp"

namespace stream::report {

namespace {
double round2(double x) { return std::round(x * 100.0) / 100.0; }
double share(const pipeline::RunResult& r, std::int64_t lat) {
  return r.total_latency == 0 ? 0.0 : round2(100.0 * static_cast<double>(lat) / static_cast<double>(r.total_latency));
}
// The pipeline's memory fallback changed this group's automatic mapping (docs/pipeline.md).
bool used_fallback(const pipeline::GroupResult& g) {
  return !g.excluded_cores.empty() || g.fill_fraction != mapping::kDefaultFillFraction || g.split_from >= 0;
}
// How many (node, core) costs there are, how many are ideal-cycle estimates, how many of each the
// schedule uses and the share of latency and energy those carry, in percent (cost_fallbacks.hpp).
void costs_yaml(yamlx::YamlText& out, const CostFallbacks& f) {
  out << YAML::Key << "costs" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "entries" << YAML::Value << f.entries << YAML::Key << "fallback" << YAML::Value << f.count();
  out << YAML::Key << "scheduled_entries" << YAML::Value << f.scheduled_entries << YAML::Key << "scheduled_fallback"
      << YAML::Value << f.scheduled();
  out << YAML::Key << "latency_share" << YAML::Value << yamlx::Shortest{share_percent(f.latency_share)} << YAML::Key << "energy_share"
      << YAML::Value << yamlx::Shortest{share_percent(f.energy_share)} << YAML::EndMap;
}
nlohmann::ordered_json costs_json(const CostFallbacks& f) {
  return {{"entries", f.entries},
          {"fallback", f.count()},
          {"scheduled_entries", f.scheduled_entries},
          {"scheduled_fallback", f.scheduled()},
          {"latency_share", share_percent(f.latency_share)},
          {"energy_share", share_percent(f.energy_share)}};
}

// The distinct reasons of the estimates, in words, each with the model's text and its pair count,
// in order of first appearance.
struct ReasonCount {
  std::string reason, detail;
  std::size_t pairs = 0;
};
std::vector<ReasonCount> reason_counts(const CostFallbacks& f) {
  std::vector<ReasonCount> out;
  for (const auto& e : f.fallbacks) {
    auto it = std::find_if(out.begin(), out.end(), [&](const ReasonCount& r) { return r.reason == e.reason && r.detail == e.detail; });
    if (it == out.end()) it = out.insert(out.end(), {e.reason, e.detail, 0});
    ++it->pairs;
  }
  return out;
}
void reasons_yaml(yamlx::YamlText& out, const CostFallbacks& f) {
  if (f.fallbacks.empty()) return;
  out << YAML::Key << "estimate_reasons" << YAML::Value << YAML::BeginSeq;
  for (const auto& r : reason_counts(f))
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "reason" << YAML::Value << r.reason << YAML::Key << "detail"
        << YAML::Value << r.detail << YAML::Key << "pairs" << YAML::Value << r.pairs << YAML::EndMap;
  out << YAML::EndSeq;
}
nlohmann::ordered_json reasons_json(const CostFallbacks& f) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& r : reason_counts(f)) out.push_back({{"reason", r.reason}, {"detail", r.detail}, {"pairs", r.pairs}});
  return out;
}

// One optional figure: its value, or null (a figure the definition leaves undefined).
void opt_yaml(yamlx::YamlText& out, const char* key, const std::optional<double>& v) {
  out << YAML::Key << key << YAML::Value;
  if (v) out << *v;
  else out << YAML::Null;
}
nlohmann::ordered_json opt_json(const std::optional<double>& v) { return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(); }

void metrics_yaml(yamlx::YamlText& out, const pipeline::GroupMetrics& m) {
  out << YAML::Key << "metrics" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "mac_spatial_utilization" << YAML::Value << m.mac_spatial_utilization;
  opt_yaml(out, "end_to_end_mac_utilization", m.end_to_end_mac_utilization);
  opt_yaml(out, "objective", m.objective);
  opt_yaml(out, "mip_gap", m.mip_gap);
  out << YAML::Key << "degenerate" << YAML::Value << m.degenerate;
  if (m.degenerate) out << YAML::Key << "degenerate_nodes" << YAML::Value << YAML::Flow << m.degenerate_nodes;
  out << YAML::EndMap;
}
nlohmann::ordered_json metrics_json(const pipeline::GroupMetrics& m) {
  nlohmann::ordered_json j{{"mac_spatial_utilization", m.mac_spatial_utilization},
                           {"end_to_end_mac_utilization", opt_json(m.end_to_end_mac_utilization)},
                           {"objective", opt_json(m.objective)},
                           {"mip_gap", opt_json(m.mip_gap)},
                           {"degenerate", m.degenerate}};
  if (m.degenerate) j["degenerate_nodes"] = m.degenerate_nodes;
  return j;
}

// Memory use per core (pipeline/memory_use.hpp): shares in percent, like the other shares here.
void memory_yaml(yamlx::YamlText& out, const std::vector<pipeline::CoreMemoryUse>& use) {
  auto figure = [&](const char* key, const auto& value) { out << YAML::Key << key << YAML::Value << value; };
  out << YAML::Key << "memory" << YAML::Value << YAML::BeginSeq;
  for (const auto& u : use) {
    out << YAML::BeginMap;
    figure("core", u.core);
    figure("name", u.name);
    figure("capacity_bits", u.capacity_bits);
    figure("peak_bits", u.peak_bits);
    figure("peak_share", yamlx::Shortest{share_percent(u.share())});
    figure("peak_group", u.peak_group);
    figure("peak_slot", u.peak_slot);
    figure("reserved_bits", u.reserved_bits);
    if (u.levels.empty()) {
      out << YAML::EndMap;
      continue;
    }
    out << YAML::Key << "levels" << YAML::Value << YAML::BeginSeq;
    for (const auto& l : u.levels) {
      out << YAML::Flow << YAML::BeginMap;
      figure("memory", l.memory);
      figure("capacity_bits", l.capacity_bits);
      figure("peak_bits", l.peak_bits);
      figure("peak_share", yamlx::Shortest{share_percent(l.share())});
      figure("node", l.node);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}
nlohmann::ordered_json memory_json(const std::vector<pipeline::CoreMemoryUse>& use) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& u : use) {
    auto levels = nlohmann::ordered_json::array();
    for (const auto& l : u.levels)
      levels.push_back({{"memory", l.memory}, {"capacity_bits", l.capacity_bits}, {"peak_bits", l.peak_bits},
                        {"peak_share", share_percent(l.share())}, {"node", l.node}});
    out.push_back({{"core", u.core}, {"name", u.name}, {"capacity_bits", u.capacity_bits}, {"peak_bits", u.peak_bits},
                   {"peak_share", share_percent(u.share())}, {"peak_group", u.peak_group}, {"peak_slot", u.peak_slot},
                   {"reserved_bits", u.reserved_bits}});
    if (!levels.empty()) out.back()["levels"] = levels;
  }
  return out;
}

// `--layout choose` (layout/choice.hpp): what changed and the conversions' share of
// latency and energy (percent, like a group's `percentage`): the conversion groups on a core and
// the conversions on the DMA, which have no group and are listed here. Absent under `--layout
// fixed`.
struct LayoutFigures {
  std::size_t changed = 0, conversions = 0;
  std::int64_t conversion_latency = 0;
  double conversion_energy = 0;
};
LayoutFigures layout_figures(const pipeline::RunResult& r) {
  LayoutFigures f;
  for (const auto& c : r.layout.choices) f.changed += c.changes() ? 1 : 0;
  for (const auto& g : r.groups)
    if (!g.converts.empty()) {
      ++f.conversions;
      f.conversion_latency += g.allocation.total_latency;
      f.conversion_energy += g.energy.total();
    }
  for (const auto& d : r.layout.dma_conversions) {
    ++f.conversions;
    f.conversion_latency += d.cost.cycles;
    f.conversion_energy += d.cost.energy;
  }
  return f;
}
double energy_share(const pipeline::RunResult& r, double e) { return r.total_energy == 0 ? 0.0 : round2(100.0 * e / r.total_energy); }
void layouts_yaml_block(yamlx::YamlText& out, const pipeline::RunResult& r) {
  if (r.layout.mode != layout::LayoutMode::Choose) return;
  const auto f = layout_figures(r);
  out << YAML::Key << "layouts" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "mode" << YAML::Value << "choose";
  out << YAML::Key << "changed_tensors" << YAML::Value << f.changed;
  out << YAML::Key << "conversions" << YAML::Value << f.conversions;
  out << YAML::Key << "first_pass_latency" << YAML::Value << (f.changed > 0 ? r.layout.first_pass_latency : r.total_latency);
  out << YAML::Key << "layout_conversion_latency" << YAML::Value << f.conversion_latency;
  out << YAML::Key << "layout_conversion_latency_share" << YAML::Value << yamlx::Shortest{share(r, f.conversion_latency)};
  out << YAML::Key << "layout_conversion_energy" << YAML::Value << f.conversion_energy;
  out << YAML::Key << "layout_conversion_energy_share" << YAML::Value << yamlx::Shortest{energy_share(r, f.conversion_energy)};
  out << YAML::Key << "dma_conversions" << YAML::Value << YAML::BeginSeq;
  for (const auto& d : r.layout.dma_conversions) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "node" << YAML::Value << layout::conversion_node_name(d.tensor);
    out << YAML::Key << "tensor" << YAML::Value << d.tensor;
    out << YAML::Key << "to" << YAML::Value << d.to;
    out << YAML::Key << "layout" << YAML::Value << d.layout.str(d.shape.size());
    out << YAML::Key << "before_group" << YAML::Value << d.before_group;
    out << YAML::Key << "latency" << YAML::Value << d.cost.cycles;
    out << YAML::Key << "percentage" << YAML::Value << yamlx::Shortest{share(r, d.cost.cycles)};
    out << YAML::Key << "energy" << YAML::Value << d.cost.energy;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;
}
nlohmann::ordered_json dma_conversions_json(const pipeline::RunResult& r) {
  auto out = nlohmann::ordered_json::array();
  for (const auto& d : r.layout.dma_conversions)
    out.push_back({{"node", layout::conversion_node_name(d.tensor)},
                   {"tensor", d.tensor},
                   {"to", d.to},
                   {"layout", d.layout.str(d.shape.size())},
                   {"before_group", d.before_group},
                   {"latency", d.cost.cycles},
                   {"percentage", share(r, d.cost.cycles)},
                   {"energy", d.cost.energy}});
  return out;
}
nlohmann::ordered_json layouts_json_block(const pipeline::RunResult& r) {
  const auto f = layout_figures(r);
  return {{"mode", "choose"},
          {"changed_tensors", f.changed},
          {"conversions", f.conversions},
          {"first_pass_latency", f.changed > 0 ? r.layout.first_pass_latency : r.total_latency},
          {"layout_conversion_latency", f.conversion_latency},
          {"layout_conversion_latency_share", share(r, f.conversion_latency)},
          {"layout_conversion_energy", f.conversion_energy},
          {"layout_conversion_energy_share", energy_share(r, f.conversion_energy)},
          {"dma_conversions", dma_conversions_json(r)}};
}

// `--mapping optimize` (optimizer_report.hpp): the search's outcome beside the figures of its best.
void optimizer_yaml_block(yamlx::YamlText& out, const OptimizerReport& o) {
  auto figure = [&](const char* key, const auto& value) { out << YAML::Key << key << YAML::Value << value; };
  // Shortest: the text optimize.yaml gives the same doubles.
  auto value = [&](const char* key, const std::optional<double>& v) {
    if (v) figure(key, yamlx::Shortest{*v});
    else figure(key, YAML::Null);
  };
  out << YAML::Key << "optimizer" << YAML::Value << YAML::BeginMap;
  figure("objective", o.objective);
  value("automatic", o.automatic);
  value("best", o.best);
  value("ratio", o.ratio());
  figure("evaluations", o.budget);
  figure("spent", o.spent);
  figure("cut_short", o.cut_short);
  figure("still_improving", o.still_improving);
  value("best_evaluation", o.best_evaluation ? std::optional<double>(static_cast<double>(*o.best_evaluation)) : std::nullopt);
  figure("group_runs", o.group_runs);
  figure("file", "optimize.yaml");
  out << YAML::EndMap;
}
nlohmann::ordered_json optimizer_json_block(const OptimizerReport& o) {
  return {{"objective", o.objective},
          {"automatic", opt_json(o.automatic)},
          {"best", o.best},
          {"ratio", opt_json(o.ratio())},
          {"evaluations", o.budget},
          {"spent", o.spent},
          {"cut_short", o.cut_short},
          {"still_improving", o.still_improving},
          {"best_evaluation", o.best_evaluation ? nlohmann::ordered_json(*o.best_evaluation) : nlohmann::ordered_json()},
          {"group_runs", o.group_runs},
          {"file", "optimize.yaml"}};
}
}  // namespace

std::string summary_yaml(const pipeline::RunResult& r, const pipeline::RunTimings* inline_timings, const pipeline::RunMetrics* metrics,
                         const OptimizerReport* optimizer) {
  yamlx::YamlText out;
  out << YAML::BeginMap;
  out << YAML::Key << "total_latency" << YAML::Value << r.total_latency;
  out << YAML::Key << "total_energy" << YAML::Value << r.total_energy;
  out << YAML::Key << "edp" << YAML::Value << r.edp;
  out << YAML::Key << "timings" << YAML::Value << "timings.yaml";  // the clock readings, kept out of here
  if (!r.cast.to.empty())
    out << YAML::Key << "cast" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "to" << YAML::Value << r.cast.to
        << YAML::Key << "tensors" << YAML::Value << r.cast.tensors << YAML::EndMap;
  if (optimizer) optimizer_yaml_block(out, *optimizer);
  const auto fallbacks = cost_fallbacks(r);
  costs_yaml(out, fallbacks);
  reasons_yaml(out, fallbacks);
  layouts_yaml_block(out, r);
  if (metrics) {
    out << YAML::Key << "mac_spatial_utilization" << YAML::Value << metrics->mac_spatial_utilization;
    opt_yaml(out, "end_to_end_mac_utilization", metrics->end_to_end_mac_utilization);
    out << YAML::Key << "max_group_latency" << YAML::Value << metrics->max_group_latency;
    out << YAML::Key << "degenerate" << YAML::Value << metrics->degenerate;
    memory_yaml(out, metrics->memory);
  }
  if (inline_timings) out << YAML::Key << "total_wall_time_s" << YAML::Value << seconds_text(inline_timings->wall_time_s);
  out << YAML::Key << "groups" << YAML::Value << YAML::BeginMap;
  for (const auto& g : r.groups) {
    out << YAML::Key << ("group_" + std::to_string(g.index)) << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "latency" << YAML::Value << g.allocation.total_latency;
    out << YAML::Key << "percentage" << YAML::Value << yamlx::Shortest{share(r, g.allocation.total_latency)};
    out << YAML::Key << "energy" << YAML::Value << g.energy.total();
    out << YAML::Key << "status" << YAML::Value << allocate::name(g.allocation.status);
    if (!g.converts.empty()) out << YAML::Key << "converts" << YAML::Value << g.converts;
    costs_yaml(out, cost_fallbacks(g));
    if (metrics) metrics_yaml(out, metrics->groups.at(static_cast<std::size_t>(&g - r.groups.data())));
    if (inline_timings) out << YAML::Key << "wall_time_s" << YAML::Value << seconds_text(inline_timings->groups.at(static_cast<std::size_t>(g.index)).wall_time_s);
    if (used_fallback(g)) {
      out << YAML::Key << "memory_fallback" << YAML::Value << YAML::BeginMap;
      out << YAML::Key << "fill_fraction" << YAML::Value << g.fill_fraction;
      out << YAML::Key << "excluded_cores" << YAML::Value << YAML::Flow << g.excluded_cores;
      if (g.split_from >= 0) out << YAML::Key << "split_from" << YAML::Value << g.split_from;
      out << YAML::EndMap;
    }
    if (g.allocation.solved())
      out << YAML::Key << "memory_accesses" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "reads"
          << YAML::Value << g.memory_accesses.reads << YAML::Key << "writes" << YAML::Value << g.memory_accesses.writes
          << YAML::EndMap;
    out << YAML::EndMap;
  }
  out << YAML::EndMap << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string summary_json(const pipeline::RunResult& r, const pipeline::RunTimings* inline_timings, const pipeline::RunMetrics* metrics,
                         const OptimizerReport* optimizer) {
  nlohmann::ordered_json j;
  j["total_latency"] = r.total_latency;
  j["total_energy"] = r.total_energy;
  j["edp"] = r.edp;
  j["timings"] = "timings.json";
  if (!r.cast.to.empty()) j["cast"] = {{"to", r.cast.to}, {"tensors", r.cast.tensors}};
  if (optimizer) j["optimizer"] = optimizer_json_block(*optimizer);
  const auto fallbacks = cost_fallbacks(r);
  j["costs"] = costs_json(fallbacks);
  if (!fallbacks.fallbacks.empty()) j["estimate_reasons"] = reasons_json(fallbacks);
  if (r.layout.mode == layout::LayoutMode::Choose) j["layouts"] = layouts_json_block(r);
  if (metrics) {
    j["mac_spatial_utilization"] = metrics->mac_spatial_utilization;
    j["end_to_end_mac_utilization"] = opt_json(metrics->end_to_end_mac_utilization);
    j["max_group_latency"] = metrics->max_group_latency;
    j["degenerate"] = metrics->degenerate;
    j["memory"] = memory_json(metrics->memory);
  }
  if (inline_timings) j["total_wall_time_s"] = rounded_seconds(inline_timings->wall_time_s);
  nlohmann::ordered_json groups = nlohmann::ordered_json::object();
  for (const auto& g : r.groups) {
    nlohmann::ordered_json gj;
    gj["latency"] = g.allocation.total_latency;
    gj["percentage"] = share(r, g.allocation.total_latency);
    gj["energy"] = g.energy.total();
    gj["energy_breakdown"] = {{"compute", g.energy.compute}, {"transfer", g.energy.transfer}, {"offchip", g.energy.offchip}};
    gj["status"] = allocate::name(g.allocation.status);
    if (!g.converts.empty()) gj["converts"] = g.converts;
    gj["costs"] = costs_json(cost_fallbacks(g));
    if (metrics) gj["metrics"] = metrics_json(metrics->groups.at(static_cast<std::size_t>(&g - r.groups.data())));
    if (inline_timings) gj["wall_time_s"] = rounded_seconds(inline_timings->groups.at(static_cast<std::size_t>(g.index)).wall_time_s);
    if (used_fallback(g)) {
      gj["memory_fallback"] = {{"fill_fraction", g.fill_fraction}, {"excluded_cores", g.excluded_cores}};
      if (g.split_from >= 0) gj["memory_fallback"]["split_from"] = g.split_from;
    }
    if (g.allocation.solved())
      gj["memory_accesses"] = {{"reads", g.memory_accesses.reads}, {"writes", g.memory_accesses.writes}};
    groups["group_" + std::to_string(g.index)] = gj;
  }
  j["groups"] = groups;
  return io::dump_json(j, 2) + "\n";
}

}  // namespace stream::report
