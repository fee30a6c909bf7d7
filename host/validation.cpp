#include "validation.hpp"

#include <map>
#include <set>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/mapping/auto_mapping.hpp>
#include <stream/pipeline/run.hpp>

#include "host_context.hpp"
#include "inputs.hpp"
#include "plugin_host.hpp"
#include "run_spec_builder.hpp"

namespace stream::host {

using namespace stream::hardware;

nlohmann::json diagnostic_json(const Diagnostic& d) {
  return {{"file", d.where.file}, {"line", d.where.line}, {"column", d.where.column}, {"message", d.message}};
}

nlohmann::json accelerator_json(const Accelerator& acc) {
  nlohmann::json cores = nlohmann::json::array();
  const auto reps = acc.performance_representatives();
  for (const Core& c : acc.cores) {
    nlohmann::json j{{"id", c.id},
                     {"name", c.name},
                     {"type", c.type.str()},
                     {"capacity_bits", c.memory_capacity()},
                     {"unit_count", c.total_unit_count()},
                     {"same_performance_as", reps[static_cast<std::size_t>(c.id)]},
                     {"in_graph", acc.in_graph(c.id)}};
    if (c.is_zigzag()) {
      j["array"] = {{"dimensions", c.operational_array.dimensions}, {"sizes", c.operational_array.sizes}};
      nlohmann::json mems = nlohmann::json::array();
      for (std::size_t m = 0; m < c.memories.size(); ++m) {
        std::vector<std::string> ops;
        for (Operand o : c.memories[m].operands) ops.emplace_back(name(o));
        mems.push_back({{"name", c.memories[m].name},
                        {"size_bits", c.memories[m].size},
                        {"instances", c.memory_instances(m)},
                        {"operands", ops},
                        {"served_dimensions", c.memories[m].served_dimensions}});
      }
      j["memories"] = mems;
    } else {
      j["memory"] = {{"capacity_bits", c.aie2_memory.capacity},
                     {"bandwidth_min", c.aie2_memory.bandwidth_min},
                     {"bandwidth_max", c.aie2_memory.bandwidth_max}};
      j["max_object_fifo_depth"] = c.max_object_fifo_depth;
    }
    if (c.operator_types) j["operator_types"] = *c.operator_types;
    if (acc.coordinates.count(c.id)) j["coordinates"] = acc.coordinates.at(c.id);
    cores.push_back(j);
  }
  std::map<std::size_t, std::size_t> pairs;
  for (const auto& e : acc.edges()) ++pairs[acc.links()[static_cast<std::size_t>(e[2])].connection];
  nlohmann::json conns = nlohmann::json::array();
  for (std::size_t i = 0; i < acc.connectivity.size(); ++i) {
    const Connection& c = acc.connectivity[i];
    nlohmann::json dma = nullptr;
    if (c.dma)
      dma = {{"burst_bits", c.dma->burst_bits},
             {"setup_cycles", c.dma->setup_cycles},
             {"max_strides", c.dma->max_strides},
             {"setup_energy", c.dma->setup_energy}};
    conns.push_back({{"index", i},
                     {"type", std::string(name(c.type))},
                     {"cores", c.cores},
                     {"bandwidth", c.bandwidth},
                     {"unit_energy_cost", c.unit_energy_cost},
                     {"dma", dma},
                     {"directed_pairs_after_replacement", pairs.count(i) ? pairs[i] : 0}});
  }
  return {{"name", acc.name},
          {"file", acc.source_file},
          {"namespace", std::string(name(acc.core_namespace()))},
          {"offchip_core_id", acc.offchip_core_id},
          {"cores", cores},
          {"connections", conns},
          {"graph_cores", acc.graph_cores()},
          {"nb_shared_mem_groups", acc.nb_shared_mem_groups()}};
}

nlohmann::json mapping_json(const mapping::Mapping& m) {
  nlohmann::json layers = nlohmann::json::array();
  for (const auto& l : m.layers) {
    nlohmann::json splits = nlohmann::json::array();
    for (const auto& s : l.splits()) splits.push_back({{"dim", "D" + std::to_string(s.dim)}, {"split", s.split}});
    layers.push_back({{"name", l.name}, {"cores", l.cores()}, {"inter_core_tiling", splits}});
  }
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& g : m.fused_groups) {
    nlohmann::json tiles = nlohmann::json::array();
    for (const auto& t : g.intra_core_tiling) tiles.push_back({{"dim", t.dim_text()}, {"tile", t.tile}});
    groups.push_back({{"name", g.name}, {"layers", g.layers}, {"intra_core_tiling", tiles}});
  }
  return {{"layers", layers}, {"fused_groups", groups}};
}

void add_probe_errors(const Accelerator& acc, const std::vector<cost::CoreProblem>& problems,
                      const std::vector<CostBackend>& backends, Diagnostics& diag) {
  std::set<std::string> said;  // identical cores (an `array:`, one core file) report one problem once
  for (const auto& p : problems) {
    if (p.core_id >= 0 && cost::select_cost_backend(backends, acc.core(p.core_id)) != nullptr) continue;
    if (said.insert(p.where.str() + p.message).second) diag.error(p.where, p.message);
  }
}

namespace {

// Each path by the one rule of inputs.hpp; a missing file is one error listing the places tried,
// and the path is then left out (empty), so that no second "cannot read" error follows.
ValidateRequest resolved_request(const ValidateRequest& given, Diagnostics& diag, bool& hardware_found) {
  ValidateRequest r = given;
  hardware_found = true;
  for (std::string* path : {&r.hardware, &r.workload, &r.mapping}) {
    try {
      *path = resolve_input(*path).string();
    } catch (const Error& e) {
      diag.error(e.where(), e.message());
      if (path == &r.hardware) hardware_found = false;
      path->clear();
    }
  }
  return r;
}

}  // namespace

Validation validate_inputs(const ValidateRequest& request, HostContext& ctx) {
  Validation v;
  bool hardware_found = true;
  const ValidateRequest opt = resolved_request(request, v.diag, hardware_found);
  if (hardware_found) v.accelerator = read_accelerator(opt.hardware, v.diag);
  // A run sums replaced connections up in one line; validate is where a user looks for each.
  if (v.accelerator) {
    for (const auto& d : v.accelerator->replacement_details) v.diag.warning(d.where, d.message);
    add_probe_errors(*v.accelerator, cost::probe_accelerator(*v.accelerator),
                     ctx.plugins().registries().cost_backend_list(), v.diag);
  }
  if (!opt.mapping.empty()) v.mapping = mapping::read_mapping_file(opt.mapping, v.diag);
  if (!opt.workload.empty()) {
    try {
      v.workload = ctx.plugins().registries().load_workload(opt.workload);
    } catch (const Error& e) {
      Location where = e.where();
      if (where.file.empty()) where.file = opt.workload;
      v.diag.error(where, e.message());
    }
  }
  // The workload `stream run` would schedule (its spec and workload, run_spec_builder.hpp: on the
  // automatic path, with Softmax expanded) and its fusion groups, checked as it checks them
  // before solving any; the rest of the validation (mappings) is of that workload too.
  if (v.workload) {
    RunRequest request;  // the mapping file was read above: its path is not resolved again
    try {
      auto built = build_run_spec(request, {});
      if (!opt.mapping.empty()) built.spec.mapping = opt.mapping;
      v.workload = scheduled_workload(*v.workload, request, built, ctx);
      v.fusion_groups = pipeline::checked_fusion_groups(*v.workload, built.spec).size();
    } catch (const Error& e) {
      Location where = e.where();
      if (where.file.empty()) where.file = opt.workload;
      v.diag.error(where, e.message());
    }
  }
  if (v.accelerator && v.mapping) {
    if (v.workload) mapping::check_mapping(*v.mapping, *v.workload, *v.accelerator, v.diag);
    else mapping::check_mapping_cores(*v.mapping, *v.accelerator, v.diag);
  }
  if (v.accelerator && v.workload && !v.mapping && !v.diag.has_errors()) {
    mapping::AutoMappingOptions aopt;
    if (!opt.tiling.empty()) aopt.intra_core_tiling = mapping::parse_tiling_spec(opt.tiling);
    try {
      v.generated = mapping::generate_mapping(*v.workload, *v.accelerator, aopt, &v.diag);
    } catch (const Error& e) {  // a problem of the pair: the hardware file when it says so, else the workload
      Location where = e.where();
      if (where.file.empty()) where.file = opt.workload;
      v.diag.error(where, e.message());
    }
  }
  return v;
}

nlohmann::json validation_json(const Validation& v, const ValidateRequest& request) {
  nlohmann::json j{{"valid", !v.diag.has_errors()}};
  j["errors"] = nlohmann::json::array();
  j["warnings"] = nlohmann::json::array();
  for (const auto& d : v.diag.errors()) j["errors"].push_back(diagnostic_json(d));
  for (const auto& d : v.diag.warnings()) j["warnings"].push_back(diagnostic_json(d));
  if (v.diag.has_errors()) return j;
  j["accelerator"] = accelerator_json(*v.accelerator);
  if (v.workload)
    j["workload"] = {{"file", request.workload},
                     {"nodes", v.workload->size()},
                     {"computation_nodes", v.workload->computation_nodes().size()},
                     {"fusion_groups", v.fusion_groups}};
  if (v.mapping) j["mapping"] = mapping_json(*v.mapping);
  if (v.generated) j["automatic_mapping"] = mapping_json(*v.generated);
  return j;
}

}  // namespace stream::host
