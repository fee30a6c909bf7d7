#include "stream/report/group_files.hpp"
#include "stream/report/timings.hpp"

#include "stream/yaml/yaml_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace stream::report {

namespace {

using schedule::SsKind;

// Integral doubles print as integers (the reference coerces them the same way).
void num(yamlx::YamlText& out, double v) {
  if (std::abs(v) < 9e15 && v == std::floor(v))
    out << static_cast<long long>(v);
  else
    out << v;
}

std::string done(yamlx::YamlText& out) { return std::string(out.c_str()) + "\n"; }

// An estimate's energy is the traffic model's, not a per-core model's (docs/energy.md): say so,
// with the port cycles that bound its latency under `--cost-profile full`, and whether they did.
void write_traffic_model(yamlx::YamlText& out, const cost::CostEntry& c) {
  if (c.energy_model.empty()) return;
  out << YAML::Key << "energy_model" << YAML::Value << c.energy_model;
  out << YAML::Key << "traffic_cycles" << YAML::Value;
  num(out, c.traffic_cycles);
  if (c.latency_traffic_bound) out << YAML::Key << "latency_model" << YAML::Value << "traffic-bound";
}

}  // namespace

std::string core_cost_lut_yaml(const pipeline::GroupResult& g) {
  yamlx::YamlText out;
  out << YAML::BeginMap << YAML::Key << "nodes" << YAML::Value << YAML::BeginSeq;
  for (std::size_t i : g.tiled.workload.computation_nodes()) {
    const Node& node = g.tiled.workload.node(i);
    auto it = g.costs.find(node.name);
    if (it == g.costs.end()) continue;
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << node.name << YAML::Key << "type" << YAML::Value << node.type
        << YAML::Key << "cores" << YAML::Value << YAML::BeginSeq;
    for (const auto& c : it->second) {
      out << YAML::Flow << YAML::BeginMap;
      out << YAML::Key << "core_id" << YAML::Value << c.core_id;
      out << YAML::Key << "core_type" << YAML::Value << c.core_type;
      out << YAML::Key << "latency_total" << YAML::Value;
      num(out, c.latency_total);
      out << YAML::Key << "ideal_cycle" << YAML::Value;
      num(out, c.ideal_cycle);
      out << YAML::Key << "ideal_temporal_cycle" << YAML::Value;
      num(out, c.ideal_temporal_cycle);
      out << YAML::Key << "energy_total" << YAML::Value;
      num(out, c.energy_total);
      out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
      if (c.utilization) {  // the reference's AIE order: {utilization: u, backend: aie}
        // Printed as the reference's float (100.0, 61.8).
        const double u = *c.utilization;
        out << YAML::Key << "utilization" << YAML::Value;
        if (std::abs(u) < 9e15 && u == std::floor(u))
          out << std::to_string(static_cast<long long>(u)) + ".0";
        else
          out << u;
      }
      out << YAML::Key << "backend" << YAML::Value << c.backend;
      write_traffic_model(out, c);
      if (!c.reason.empty()) out << YAML::Key << "reason" << YAML::Value << c.reason;
      if (!c.detail.empty() && c.detail != c.reason) out << YAML::Key << "detail" << YAML::Value << c.detail;
      out << YAML::EndMap;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  return done(out);
}

namespace {

// slot_latency_breakdown.yaml, one section per function in the file's order.

void write_totals(yamlx::YamlText& out, const pipeline::GroupResult& g) {
  const auto& a = g.allocation;
  out << YAML::Key << "totals" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "iterations" << YAML::Value << g.schedule.iterations;
  out << YAML::Key << "latency_per_iteration" << YAML::Value << a.latency_per_iteration;
  out << YAML::Key << "overlap" << YAML::Value << a.overlap;
  out << YAML::Key << "iter_step" << YAML::Value << (a.latency_per_iteration - a.overlap);
  out << YAML::Key << "total_latency" << YAML::Value << a.total_latency;
  out << YAML::EndMap;
}

// Slack of each resource (core, link) = its idle time within one iteration, least first; resources
// in first-use order among equals.
void write_resource_slack(yamlx::YamlText& out, const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  const auto& ss = g.schedule;
  const auto& a = g.allocation;
  std::map<std::string, std::int64_t> busy;
  std::vector<std::pair<std::string, std::string>> resources;
  auto occupy = [&](const std::string& key, const char* kind, int slot) {
    if (!busy.count(key)) resources.emplace_back(key, kind);
    busy[key] += a.slot_latency[static_cast<std::size_t>(slot)];
  };
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind == SsKind::Compute)
      for (int c : n.cores) occupy("core " + std::to_string(c), "core", n.slot);
    if (n.kind == SsKind::Transfer && a.plan[i] >= 0)
      for (int l : n.plans[static_cast<std::size_t>(a.plan[i])].links) occupy(acc.link_name(l), "link", n.slot);
  }
  std::vector<std::tuple<std::int64_t, std::string, std::string>> slack;
  for (const auto& [r, k] : resources) slack.emplace_back(a.latency_per_iteration - busy[r], r, k);
  std::stable_sort(slack.begin(), slack.end(), [](const auto& x, const auto& y) { return std::get<0>(x) < std::get<0>(y); });
  out << YAML::Key << "resource_slack" << YAML::Value << YAML::BeginSeq;
  for (const auto& [sl, r, k] : slack)
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "resource" << YAML::Value << r << YAML::Key << "kind" << YAML::Value
        << k << YAML::Key << "slack_cycles" << YAML::Value << sl << YAML::EndMap;
  out << YAML::EndSeq;
}

void write_tensor_reuse(yamlx::YamlText& out, const pipeline::GroupResult& g) {
  const auto& ss = g.schedule;
  const auto& a = g.allocation;
  out << YAML::Key << "tensor_reuse" << YAML::Value << YAML::BeginSeq;
  for (std::size_t t = 0; t < ss.tensors.size(); ++t) {
    const auto& ten = ss.tensors[t];
    out << YAML::BeginMap << YAML::Key << "tensor" << YAML::Value << ten.name;
    out << YAML::Key << "size_bits" << YAML::Value << ten.bits;
    out << YAML::Key << "reuse_factor" << YAML::Value << a.reuse_factor[t];
    out << YAML::Key << "reuse_stop_level" << YAML::Value << a.reuse_stop[t];
    out << YAML::Key << "on_chip_tiles" << YAML::Value << a.tiles_on_chip[t];
    out << YAML::Key << "loop_nest_out_to_in" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (auto it = ten.loops.rbegin(); it != ten.loops.rend(); ++it)
      out << ("z" + std::to_string(it->dim) + "[" + std::to_string(it->size) + "] " + schedule::name(it->effect));
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// The compute nodes of slot s: LUT latency scaled by the non-ABSENT fraction of their loops.
void write_compute_contributors(yamlx::YamlText& out, const pipeline::GroupResult& g, int s) {
  out << YAML::Key << "compute_contributors" << YAML::Value << YAML::BeginSeq;
  for (const auto& n : g.schedule.nodes) {
    if (n.kind != SsKind::Compute || n.slot != s) continue;
    auto it = g.costs.find(n.name);
    double all = 1, present = 1;
    for (const auto& l : n.loops) {
      all *= static_cast<double>(l.size);
      if (l.effect != schedule::LoopEffect::Absent) present *= static_cast<double>(l.size);
    }
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << n.name;
    out << YAML::Key << "n_cores_in_lut" << YAML::Value << (it == g.costs.end() ? 0 : it->second.size());
    out << YAML::Key << "lut_latency_total" << YAML::Value;
    num(out, n.lut_latency);
    out << YAML::Key << "ssis_fraction" << YAML::Value << present / all;
    out << YAML::Key << "active_latency" << YAML::Value << n.active_latency << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

// The transfers of slot s over their chosen plan: path cycles, reuse and MILP contribution.
void write_transfer_contributors(yamlx::YamlText& out, const pipeline::GroupResult& g, const hardware::Accelerator& acc, int s) {
  const auto& ss = g.schedule;
  const auto& a = g.allocation;
  out << YAML::Key << "transfer_contributors" << YAML::Value << YAML::BeginSeq;
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != SsKind::Transfer || n.slot != s || a.plan[i] < 0) continue;
    const auto& p = n.plans[static_cast<std::size_t>(a.plan[i])];
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << n.name;
    out << YAML::Key << "tensor_bits" << YAML::Value << ss.tensors[static_cast<std::size_t>(n.inputs.front())].bits;
    out << YAML::Key << "min_link_bw" << YAML::Value;
    num(out, p.min_bandwidth);
    out << YAML::Key << "links" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int l : p.links) out << acc.link_name(l);
    out << YAML::EndSeq;
    out << YAML::Key << "raw_path_cycles" << YAML::Value << p.latency;
    if (!p.link_costs.empty()) {  // a DMA-priced plan: its slowest link's runs and descriptors
      const auto slowest = std::max_element(p.link_costs.begin(), p.link_costs.end(),
                                            [](const auto& x, const auto& y) { return x.cycles < y.cycles; });
      out << YAML::Key << "dma_runs" << YAML::Value << slowest->runs;
      out << YAML::Key << "dma_descriptors" << YAML::Value << slowest->descriptors;
    }
    out << YAML::Key << "active_latency_absent_loops" << YAML::Value
        << schedule::active_latency(n.loops, static_cast<double>(p.latency));
    out << YAML::Key << "reuse_factor" << YAML::Value << a.reuse_factor[static_cast<std::size_t>(n.outputs.front())];
    out << YAML::Key << "contribution" << YAML::Value;
    num(out, a.transfer_contribution[i]);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void write_slots(yamlx::YamlText& out, const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  out << YAML::Key << "slots" << YAML::Value << YAML::BeginSeq;
  for (int s = 0; s <= g.schedule.max_slot; ++s) {
    out << YAML::BeginMap << YAML::Key << "slot" << YAML::Value << s;
    out << YAML::Key << "slot_latency_cycles" << YAML::Value << g.allocation.slot_latency[static_cast<std::size_t>(s)];
    write_compute_contributors(out, g, s);
    write_transfer_contributors(out, g, acc, s);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

}  // namespace

std::string slot_latency_breakdown_yaml(const pipeline::GroupResult& g, const hardware::Accelerator& acc) {
  yamlx::YamlText out;
  out << YAML::BeginMap;
  write_totals(out, g);
  if (g.allocation.solved()) {  // without an allocation the file holds the totals only
    write_resource_slack(out, g, acc);
    write_tensor_reuse(out, g);
    write_slots(out, g, acc);
  }
  out << YAML::EndMap;
  return done(out);
}

std::string optimization_metrics_yaml(const pipeline::GroupResult& g, const std::string& solver, const pipeline::GroupClocks* inline_timings,
                                      const std::string& model_file) {
  const auto& a = g.allocation;
  yamlx::YamlText out;
  out << YAML::BeginMap;
  out << YAML::Key << "solver" << YAML::Value << solver;
  out << YAML::Key << "status" << YAML::Value << allocate::name(a.status);
  out << YAML::Key << "search" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "nodes_explored" << YAML::Value << a.nodes_explored;
  out << YAML::Key << "simplex_iterations" << YAML::Value << a.simplex_iterations << YAML::EndMap;
  out << YAML::Key << "objectives" << YAML::Value << YAML::BeginSeq;
  for (std::size_t i = 0; i < a.level_names.size(); ++i) {
    out << YAML::BeginMap << YAML::Key << "level" << YAML::Value << a.level_names[i];
    out << YAML::Key << "priority" << YAML::Value << static_cast<int>(a.level_names.size() - i);
    out << YAML::Key << "status" << YAML::Value << (i < a.level_status.size() ? a.level_status[i] : std::string("NOT_SOLVED"));
    out << YAML::Key << "objective" << YAML::Value;
    if (i < a.level_objectives.size()) num(out, std::round(a.level_objectives[i] * 1e6) / 1e6); else out << YAML::Null;
    if (inline_timings && i < a.level_status.size())  // a solved level
      out << YAML::Key << "solve_time_s" << YAML::Value << seconds_text(inline_timings->allocation.level_s(a.level_names[i]));
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "timings" << YAML::Value << "../timings.yaml";  // the solve times, kept out of here
  if (inline_timings) out << YAML::Key << "solve_time_s" << YAML::Value << seconds_text(inline_timings->allocation.levels_s());
  out << YAML::Key << "model" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "variables" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "total" << YAML::Value << a.size.variables;
  out << YAML::Key << "integer" << YAML::Value << a.size.integers + a.size.binaries;
  out << YAML::Key << "binary" << YAML::Value << a.size.binaries;
  out << YAML::Key << "continuous" << YAML::Value << a.size.continuous << YAML::EndMap;
  out << YAML::Key << "constraints" << YAML::Value << a.size.constraints;
  out << YAML::Key << "nonzeros" << YAML::Value << a.size.nonzeros << YAML::EndMap;
  if (!a.infeasibility.empty()) out << YAML::Key << "infeasibility" << YAML::Value << YAML::Literal << a.infeasibility;
  if (!a.mps.empty() && !model_file.empty()) out << YAML::Key << "model_file" << YAML::Value << model_file;
  out << YAML::EndMap;
  return done(out);
}

std::string memory_accesses_yaml(const pipeline::GroupResult& g) {
  const auto& m = g.memory_accesses;
  yamlx::YamlText out;
  out << YAML::BeginMap;
  out << YAML::Key << "scope" << YAML::Value << "whole group";
  out << YAML::Key << "iterations" << YAML::Value << m.iterations;
  out << YAML::Key << "totals" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "reads" << YAML::Value << m.reads << YAML::Key << "writes" << YAML::Value << m.writes;
  out << YAML::Key << "bits_read" << YAML::Value << m.bits_read << YAML::Key << "bits_written" << YAML::Value
      << m.bits_written << YAML::EndMap;
  out << YAML::Key << "cores" << YAML::Value << YAML::BeginSeq;
  for (const auto& c : m.cores) {
    out << YAML::BeginMap;
    out << YAML::Key << "core_id" << YAML::Value << c.core;
    out << YAML::Key << "core_name" << YAML::Value << c.core_name;
    out << YAML::Key << "read_bandwidth" << YAML::Value << c.read_bandwidth;
    out << YAML::Key << "write_bandwidth" << YAML::Value << c.write_bandwidth;
    out << YAML::Key << "reads" << YAML::Value << c.reads;
    out << YAML::Key << "writes" << YAML::Value << c.writes;
    out << YAML::Key << "bits_read" << YAML::Value << c.bits_read;
    out << YAML::Key << "bits_written" << YAML::Value << c.bits_written;
    out << YAML::Key << "transfers" << YAML::Value << YAML::BeginSeq;
    for (const auto& t : c.transfers) {
      const bool src = t.role == pipeline::AccessRole::Source;
      out << YAML::Flow << YAML::BeginMap;
      out << YAML::Key << "transfer" << YAML::Value << t.transfer;
      out << YAML::Key << "tensor" << YAML::Value << t.tensor;
      out << YAML::Key << "role" << YAML::Value << pipeline::name(t.role);
      out << YAML::Key << "tile_bits" << YAML::Value << t.tile_bits;
      out << YAML::Key << "bandwidth" << YAML::Value << t.bandwidth;
      out << YAML::Key << "fires" << YAML::Value << t.fires;
      out << YAML::Key << (src ? "reads" : "writes") << YAML::Value << t.accesses;
      out << YAML::Key << (src ? "bits_read" : "bits_written") << YAML::Value << t.bits;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace stream::report
