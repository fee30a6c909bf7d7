#include "stream/hardware/hardware_cost.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

namespace stream::hardware {

namespace {

bool on_die(const Core& core) { return core.kind() != CoreKind::Offchip && core.kind() != CoreKind::Shim; }

std::string core_name(const Core& core) { return core.name.empty() ? "core_" + std::to_string(core.id) : core.name; }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void warn(HardwareCostReport& report, const std::string& text) {
  if (std::find(report.warnings.begin(), report.warnings.end(), text) == report.warnings.end())
    report.warnings.push_back(text);
}

// The node the report prices at: the argument, else the file's key, else n16 (with a warning);
// a node the built-in model does not know is priced at n16 too, as the reference does.
TechnologyNode resolve_node(const Accelerator& acc, const std::optional<std::string>& requested,
                            HardwareCostReport& report) {
  const auto chosen = requested && !requested->empty() ? requested : acc.technology_node;
  report.technology_declared = chosen && !chosen->empty();
  TechnologyNode node;
  if (!report.technology_declared) warn(report, "bundle declares no `technology_node`; priced at n16");
  else if (lower(*chosen) != node.name) warn(report, "node '" + lower(*chosen) + "' unknown to the built-in model; priced at n16");
  report.technology_node = node.name;
  return node;
}

// Alias group label and owner per (core id, memory name): the group's members as "id.name"
// joined by '+'; its first member is the one counted.
struct AliasInfo {
  std::string label;
  bool owner = false;
};
std::map<std::pair<int, std::string>, AliasInfo> alias_groups(const Accelerator& acc) {
  std::map<std::pair<int, std::string>, AliasInfo> out;
  for (const auto& group : acc.memory_aliases) {
    std::string label;
    for (const auto& [core, memory] : group.members) label += (label.empty() ? "" : "+") + std::to_string(core) + "." + memory;
    for (std::size_t i = 0; i < group.members.size(); ++i) out.try_emplace(group.members[i], AliasInfo{label, i == 0});
  }
  return out;
}

// Instances of a ZigZag memory: the array sizes (at least 1 each) of the dimensions it does not serve.
std::int64_t replicated_instances(const Core& core, const Memory& memory) {
  const auto& oa = core.operational_array;
  std::int64_t instances = 1;
  for (std::size_t d = 0; d < std::min(oa.dimensions.size(), oa.sizes.size()); ++d)
    if (std::find(memory.served_dimensions.begin(), memory.served_dimensions.end(), oa.dimensions[d]) ==
        memory.served_dimensions.end())
      instances *= std::max<std::int64_t>(oa.sizes[d], 1);
  return instances;
}

// Energies and area of one memory entry whose geometry is set.
void price(MemoryCost& m, bool core_on_die, const TechnologyNode& node) {
  m.total_bits = m.bits_per_instance * m.instances;
  const double width = static_cast<double>(m.access_width_bits);
  if (core_on_die) {
    m.style = "sram";
    m.read_energy_pj = width * node.read_pj_per_bit;
    m.write_energy_pj = width * node.write_pj_per_bit;
    m.area_mm2 = m.counted ? static_cast<double>(m.total_bits) * node.sram_um2_per_bit / 1e6 : 0.0;
  } else {
    m.style = "off_die";
    m.read_energy_pj = m.write_energy_pj = width * node.dram_pj_per_bit;
    m.area_mm2 = 0;
    m.counted = false;
  }
}

std::vector<MemoryCost> memory_costs(const Core& core, const std::map<std::pair<int, std::string>, AliasInfo>& aliases,
                                     const TechnologyNode& node) {
  std::vector<MemoryCost> out;
  auto base = [&](const std::string& memory_name) {
    MemoryCost m;
    m.core_id = core.id;
    m.core_name = core_name(core);
    m.memory_name = memory_name;
    const auto alias = aliases.find({core.id, memory_name});
    if (alias != aliases.end()) m.alias_group = alias->second.label;
    m.counted = on_die(core) && (alias == aliases.end() || alias->second.owner);
    return m;
  };
  if (core.is_zigzag() && !core.memories.empty()) {
    for (const auto& memory : core.memories) {
      MemoryCost m = base(memory.name);
      m.nb_ports = std::max<std::int64_t>(static_cast<std::int64_t>(memory.ports.size()), 1);
      for (const auto& port : memory.ports) m.access_width_bits = std::max(m.access_width_bits, port.bandwidth_max);
      m.bits_per_instance = memory.size;
      m.instances = replicated_instances(core, memory);
      price(m, on_die(core), node);
      out.push_back(std::move(m));
    }
    return out;
  }
  // A tile with one memory block (AIE) is one memory of two ports; a core without one gets a zero entry.
  MemoryCost m = base("memory");
  if (core.is_aie2() && (core.aie2_memory.capacity > 0 || core.aie2_memory.bandwidth_max > 0)) {
    m.instances = 1;
    m.nb_ports = 2;
    m.access_width_bits = core.aie2_memory.bandwidth_max;
    m.bits_per_instance = core.aie2_memory.capacity;
  }
  price(m, on_die(core), node);
  out.push_back(std::move(m));
  return out;
}

std::optional<ComputeCost> compute_cost(const Core& core, const TechnologyNode& node) {
  if (!on_die(core)) return std::nullopt;
  ComputeCost c;
  c.core_id = core.id;
  c.core_name = core_name(core);
  if (!core.is_zigzag()) return c;  // no operational array the model can price
  c.nb_units = 1;
  for (auto s : core.operational_array.sizes) c.nb_units *= std::max<std::int64_t>(s, 0);
  if (c.nb_units <= 0) return std::nullopt;
  c.modelled = true;
  c.area_mm2 = static_cast<double>(c.nb_units) * node.mac_area_um2 / 1e6;
  c.energy_per_op_pj = node.mac_energy_pj;
  if (core.operand_precision) {
    c.precision_declared = true;
    c.input_format = core.operand_precision->input;
    c.accumulator_format = core.operand_precision->accumulator;
  }
  return c;
}

void add_to_totals(const CoreCost& core, HardwareCostReport& r) {
  for (const auto& m : core.memories) {
    r.memory_area_mm2 += m.area_mm2;
    const double access = static_cast<double>(m.instances * m.nb_ports) * m.read_energy_pj;
    if (m.counted) {
      r.on_die_memory_bits += m.total_bits;
      r.peak_access_energy_pj_per_cycle += access;
    }
    if (!core.on_die) {
      r.off_die_memory_bits += m.total_bits;
      r.off_die_access_energy_pj_per_cycle += access;
    }
  }
  if (core.compute) {
    r.compute_area_mm2 += core.compute->area_mm2;
    if (core.compute->modelled)
      r.peak_access_energy_pj_per_cycle += static_cast<double>(core.compute->nb_units) * core.compute->energy_per_op_pj;
    r.compute_modelled = r.compute_modelled.value_or(true) && core.compute->modelled;
  }
}

std::string fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

}  // namespace

HardwareCostReport hardware_cost(const Accelerator& accelerator, const std::optional<std::string>& technology_node) {
  HardwareCostReport r;
  r.bundle_name = accelerator.name;
  const TechnologyNode node = resolve_node(accelerator, technology_node, r);
  const auto aliases = alias_groups(accelerator);
  for (const auto& core : accelerator.cores) {  // index == id: ascending ids, as the reference prices them
    CoreCost c;
    c.core_id = core.id;
    c.name = core_name(core);
    c.core_type = core.type.str();
    c.on_die = on_die(core);
    c.memories = memory_costs(core, aliases, node);
    c.compute = compute_cost(core, node);
    for (const auto& m : c.memories) c.area_mm2 += m.area_mm2;
    if (c.compute) c.area_mm2 += c.compute->area_mm2;
    add_to_totals(c, r);
    r.cores.push_back(std::move(c));
  }
  r.total_area_mm2 = r.memory_area_mm2 + r.compute_area_mm2;
  return r;
}

std::string hardware_cost_json(const HardwareCostReport& r) {
  using J = nlohmann::ordered_json;
  J cores = J::array();
  for (const auto& c : r.cores) {
    J memories = J::array();
    for (const auto& m : c.memories)
      memories.push_back({{"core_id", m.core_id}, {"core_name", m.core_name}, {"memory_name", m.memory_name},
                          {"style", m.style}, {"instances", m.instances}, {"bits_per_instance", m.bits_per_instance},
                          {"total_bits", m.total_bits}, {"access_width_bits", m.access_width_bits},
                          {"nb_ports", m.nb_ports}, {"area_mm2", m.area_mm2}, {"read_energy_pj", m.read_energy_pj},
                          {"write_energy_pj", m.write_energy_pj}, {"authored_read_energy_pj", nullptr},
                          {"counted", m.counted},
                          {"alias_group", m.alias_group.empty() ? J(nullptr) : J(m.alias_group)}});
    J compute = nullptr;
    if (const auto& k = c.compute)
      compute = {{"core_id", k->core_id}, {"core_name", k->core_name}, {"modelled", k->modelled},
                 {"nb_units", k->nb_units}, {"input_format", k->input_format},
                 {"accumulator_format", k->accumulator_format}, {"precision_declared", k->precision_declared},
                 {"gate_equivalents", 0.0}, {"area_mm2", k->area_mm2}, {"energy_per_op_pj", k->energy_per_op_pj},
                 {"authored_energy_per_op_pj", nullptr}};
    cores.push_back({{"core_id", c.core_id}, {"name", c.name}, {"core_type", c.core_type}, {"on_die", c.on_die},
                     {"memories", memories}, {"compute", compute}, {"area_mm2", c.area_mm2}});
  }
  const J doc = {{"bundle_name", r.bundle_name},
                 {"technology_node", r.technology_node},
                 {"technology_declared", r.technology_declared},
                 {"cores", cores},
                 {"total_area_mm2", r.total_area_mm2},
                 {"memory_area_mm2", r.memory_area_mm2},
                 {"compute_area_mm2", r.compute_area_mm2},
                 {"on_die_memory_bits", r.on_die_memory_bits},
                 {"off_die_memory_bits", r.off_die_memory_bits},
                 {"peak_access_energy_pj_per_cycle", r.peak_access_energy_pj_per_cycle},
                 {"off_die_access_energy_pj_per_cycle", r.off_die_access_energy_pj_per_cycle},
                 {"warnings", r.warnings},
                 {"authored_disagreements", J::array()},
                 {"accuracy_claim", nullptr},
                 {"compute_modelled", r.compute_modelled ? J(*r.compute_modelled) : J(nullptr)}};
  return doc.dump(2, ' ', false, J::error_handler_t::replace) + "\n";
}

HardwareBudget budget_from(const HardwareCostReport& report, double headroom) {
  char factor[32];
  std::snprintf(factor, sizeof factor, "%g", 1 + headroom);
  return {report.total_area_mm2 * (1 + headroom), report.peak_access_energy_pj_per_cycle * (1 + headroom),
          report.bundle_name + " x" + factor};
}

std::string BudgetVerdict::str() const {
  if (ok) return "within budget";
  std::string out;
  for (const auto& v : violations) out += (out.empty() ? "" : "; ") + v;
  return out;
}

BudgetVerdict check_budget(const HardwareCostReport& report, const HardwareBudget& budget) {
  BudgetVerdict v;
  const double area = report.total_area_mm2;
  const double energy = report.peak_access_energy_pj_per_cycle;
  if (budget.max_area_mm2 && area > *budget.max_area_mm2)
    v.violations.push_back("area " + fixed(area, 3) + " mm2 exceeds budget " + fixed(*budget.max_area_mm2, 3) +
                           " mm2 (" + fixed(area / *budget.max_area_mm2, 2) + "x)");
  if (budget.max_energy_pj_per_cycle && energy > *budget.max_energy_pj_per_cycle)
    v.violations.push_back("peak access energy " + fixed(energy, 3) + " pJ/cycle exceeds budget " +
                           fixed(*budget.max_energy_pj_per_cycle, 3) + " pJ/cycle");
  v.ok = v.violations.empty();
  return v;
}

}  // namespace stream::hardware
