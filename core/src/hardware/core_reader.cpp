#include "stream/hardware/core_reader.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "core_reader_internal.hpp"

namespace stream::hardware {

namespace detail {
namespace {

using yamlx::Ctx;
using yamlx::MapReader;

bool is_array_dim(std::string_view s) {  // ^D\d$
  return s.size() == 2 && s[0] == 'D' && std::isdigit(static_cast<unsigned char>(s[1]));
}

bool is_port_name(std::string_view s) {  // ^[r]?[w]?_port_\d+$
  if (!s.empty() && s.front() == 'r') s.remove_prefix(1);
  if (!s.empty() && s.front() == 'w') s.remove_prefix(1);
  if (s.substr(0, 6) != "_port_") return false;
  s.remove_prefix(6);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::optional<DataDirection> parse_direction(std::string_view s) {
  if (s == "fh") return DataDirection::WrInByHigh;
  if (s == "fl") return DataDirection::WrInByLow;
  if (s == "th") return DataDirection::RdOutToHigh;
  if (s == "tl") return DataDirection::RdOutToLow;
  return std::nullopt;
}

/// "I1, tl" exactly as the reference's pattern ^(I[12]|O), (fh|tl|fl|th)$.
std::optional<PortAllocation> parse_allocation(std::string_view s) {
  const auto comma = s.find(", ");
  if (comma == std::string_view::npos) return std::nullopt;
  auto op = parse_operand(s.substr(0, comma));
  auto dir = parse_direction(s.substr(comma + 2));
  if (!op || !dir) return std::nullopt;
  return PortAllocation{*op, *dir};
}

/// "K, 16" as ^[A-Z]+, [0-9]+$.
std::optional<UnrollFactor> parse_unroll(std::string_view s) {
  const auto comma = s.find(", ");
  if (comma == std::string_view::npos || comma == 0) return std::nullopt;
  std::string_view dim = s.substr(0, comma), num = s.substr(comma + 2);
  if (!std::all_of(dim.begin(), dim.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) return std::nullopt;
  if (num.empty() || !std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  auto v = yamlx::parse_int(num);
  if (!v) {
    // Leading zeros are octal in parse_int; the reference reads this number with int() (decimal).
    std::int64_t n = 0;
    for (char c : num) n = n * 10 + (c - '0');
    v = n;
  }
  return UnrollFactor{std::string(dim), *v};
}

std::string prefixed(const std::string& label, const std::string& rest) {
  return label.empty() ? rest : label + ", " + rest;
}

/// A list node of any scalars; errors recorded via reader.
std::optional<YAML::Node> list_node(MapReader& r, std::string_view key, bool required) {
  auto n = r.node(key, required);
  if (!n) return std::nullopt;
  if (!n->IsSequence()) {
    r.error(key, "'" + std::string(key) + "' must be a list, got " + yamlx::describe(*n));
    return std::nullopt;
  }
  return n;
}

/// Returns true when the dimension names were read without error (served dims can be checked).
bool read_operational_array(const YAML::Node& node, const Ctx& ctx, const std::string& what, OperationalArray& oa,
                            bool computes) {
  MapReader r(ctx, node, what);
  if (!r.ok()) return false;
  bool dims_ok = false;
  r.reject_unknown({"dimensions", "sizes", "unit_energy", "unit_area", "input_precision", "is_imc", "imc_type",
                    "adc_resolution", "bit_serial_precision"});
  if (auto dims = r.text_list("dimensions", true)) {
    dims_ok = true;
    std::set<std::string> seen;
    for (const auto& d : *dims) {
      if (!is_array_dim(d)) r.error("dimensions", "dimension '" + d + "' does not match D<digit> (e.g. D1)"), dims_ok = false;
      if (!seen.insert(d).second) r.error("dimensions", "dimension '" + d + "' is listed twice"), dims_ok = false;
    }
    oa.dimensions = *dims;
  }
  if (auto sizes = list_node(r, "sizes", true)) {
    for (const auto& item : *sizes) {
      auto v = yamlx::to_int(item);
      if (!v || *v < 0) {
        ctx.diag.error(yamlx::loc(ctx, item),
                       what + ": 'sizes' entries must be integers >= 0, got " + yamlx::describe(item));
        continue;
      }
      oa.sizes.push_back(*v);
    }
    if (r.has("dimensions") && oa.dimensions.size() != sizes->size())
      r.error("sizes", "Core dimensions and sizes do not match (" + std::to_string(oa.dimensions.size()) +
                           " dimensions, " + std::to_string(sizes->size()) + " sizes)");
  }
  if (auto v = r.number("unit_energy", true, 0.0)) {
    oa.unit_energy = *v;
    if (computes && *v == 0.0)  // legal, but more often forgotten: said once, at its line
      ctx.diag.warning(r.where("unit_energy"), what + ": unit_energy is 0 on a compute core: its MACs add no energy to "
                                                      "any result");
  }
  if (auto v = r.number("unit_area", true)) oa.unit_area = *v;
  if (auto ip = list_node(r, "input_precision", false)) {
    for (const auto& item : *ip) {
      auto v = yamlx::to_int(item);
      if (!v) {
        ctx.diag.error(yamlx::loc(ctx, item),
                       what + ": 'input_precision' entries must be integers, got " + yamlx::describe(item));
        continue;
      }
      oa.input_precision.push_back(*v);
    }
    if (ip->size() != 2) r.error("input_precision", "'input_precision' must list exactly 2 integers");
  }
  if (auto v = r.boolean("is_imc", false)) oa.is_imc = *v;
  if (auto v = r.text("imc_type", false, true)) {
    if (*v != "analog" && *v != "digital") r.error("imc_type", "'imc_type' must be analog or digital, got '" + *v + "'");
    oa.imc_type = *v;
  }
  if (auto v = r.number("adc_resolution", false)) oa.adc_resolution = *v;
  if (auto v = r.number("bit_serial_precision", false, std::nullopt, true)) oa.bit_serial_precision = *v;
  if (!oa.is_imc) {
    if (oa.imc_type) r.error("imc_type", "'imc_type' must be null for a non-IMC array (is_imc is false)");
    if (oa.adc_resolution != 0.0) r.error("adc_resolution", "'adc_resolution' must be 0 for a non-IMC array");
    if (oa.bit_serial_precision)
      r.error("bit_serial_precision", "'bit_serial_precision' must be null for a non-IMC array");
  }
  return dims_ok;
}

void read_port(const YAML::Node& node, const Ctx& ctx, const std::string& mem_what, const std::string& mem_name,
               Memory& mem) {
  MapReader r(ctx, node, mem_what + ", port");
  if (!r.ok()) return;
  Port port;
  if (auto n = r.text("name", true)) {
    port.name = *n;
    if (!is_port_name(*n)) r.error("name", "port name '" + *n + "' does not match ^[r]?[w]?_port_<n>$");
  }
  const std::string port_what = mem_what + ", port '" + port.name + "'";
  r.set_what(port_what);
  r.reject_unknown({"name", "type", "bandwidth_min", "bandwidth_max", "allocation"});
  bool type_ok = false;
  if (auto t = r.text("type", true)) {
    if (*t == "read") port.type = PortType::Read, type_ok = true;
    else if (*t == "write") port.type = PortType::Write, type_ok = true;
    else if (*t == "read_write") port.type = PortType::ReadWrite, type_ok = true;
    else r.error("type", "port type must be read, write or read_write, got '" + *t + "'");
  }
  auto bmin = r.integer("bandwidth_min", true, 0);
  auto bmax = r.integer("bandwidth_max", true, 1);  // a port moving 0 bits per cycle never finishes
  if (bmin) port.bandwidth_min = *bmin;
  if (bmax) port.bandwidth_max = *bmax;
  if (bmin && bmax && *bmin > *bmax)
    r.error("bandwidth_min", "Minimum bandwidth is greater than maximum bandwidth in " + mem_name + " (port '" +
                                 port.name + "': " + std::to_string(*bmin) + " > " + std::to_string(*bmax) + ")");
  if (auto alloc = list_node(r, "allocation", false)) {
    for (const auto& item : *alloc) {
      auto text = yamlx::to_text(item);
      auto a = text ? parse_allocation(*text) : std::nullopt;
      if (!a) {
        ctx.diag.error(yamlx::loc(ctx, item), port_what + ": allocation " + yamlx::describe(item) +
                                                  " does not match '<I1|I2|O>, <fh|tl|fl|th>'");
        continue;
      }
      if (type_ok && port.type == PortType::Read && is_write(a->direction))
        ctx.diag.error(yamlx::loc(ctx, item), port_what + ": Read port given for write direction in " + mem_name +
                                                  " ('" + *text + "')");
      if (type_ok && port.type == PortType::Write && !is_write(a->direction))
        ctx.diag.error(yamlx::loc(ctx, item), port_what + ": Write port given for read direction in " + mem_name +
                                                  " ('" + *text + "')");
      port.allocation.push_back(*a);
    }
  }
  mem.ports.push_back(std::move(port));
}

// A compute core's memory whose accesses cost nothing leaves its traffic out of every energy figure:
// legal (an idealised level), but more often a value forgotten, so it is said once, at its line.
void warn_zero_access_energy(MapReader& r, const Ctx& ctx, const std::string& what, const Memory& mem) {
  const bool reads = mem.r_cost == 0.0, writes = mem.w_cost == 0.0;
  if (!reads && !writes) return;
  const std::string costs = reads && writes ? "r_cost and w_cost are" : reads ? "r_cost is" : "w_cost is";
  const std::string accesses = reads && writes ? "reads and writes" : reads ? "reads" : "writes";
  ctx.diag.warning(r.where(reads ? "r_cost" : "w_cost"),
                   what + ": " + costs + " 0 on a compute core: its " + accesses + " add no energy to any result");
}

void read_memory(const yamlx::Entry& entry, const Ctx& ctx, const std::string& core_what, const OperationalArray& oa,
                 bool oa_known, Core& core) {
  const std::string what = prefixed(core_what, "memory '" + entry.key + "'");
  MapReader r(ctx, entry.value, what);
  Memory mem;
  mem.name = entry.key;
  mem.where = yamlx::loc(ctx, entry.key_node);
  if (!r.ok()) return;
  r.reject_unknown({"size", "r_cost", "w_cost", "area", "latency", "mem_type", "auto_cost_extraction", "operands",
                    "ports", "served_dimensions", "force_double_buffering"});
  if (auto v = r.integer("size", true, 1)) mem.size = *v;  // 0 bits was read as "unlimited"
  // An access takes at least one cycle: every reference input says 1, ZigZag's memories default to 1,
  // and 0 would describe a memory that answers before it is asked. The cost model does not read it.
  if (auto v = r.integer("latency", true, 1)) mem.latency = *v;
  if (auto v = r.text("mem_type", false)) mem.mem_type = *v;
  if (auto v = r.boolean("auto_cost_extraction", false)) mem.auto_cost_extraction = *v;
  if (auto v = r.boolean("force_double_buffering", false)) mem.force_double_buffering = *v;
  // ZigZag asks CACTI for these costs; Stream has no such model, and the memory's read and write
  // energy would silently be 0 (a sweep would then rank designs on energy that ignores it).
  if (mem.auto_cost_extraction)
    r.error("auto_cost_extraction", "auto_cost_extraction: true asks for CACTI-extracted costs, which Stream does not "
                                    "compute (the memory's read and write energy would be 0); remove it and write "
                                    "r_cost and w_cost (pJ per access of one port-width word) and area for " + entry.key);
  for (std::string_view key : {"r_cost", "w_cost", "area"}) {
    auto v = r.number(key, false, 0.0, true);
    const yamlx::Entry* e = r.find(key);
    const bool absent = e == nullptr || yamlx::is_null(e->value);
    if (absent && !mem.auto_cost_extraction)
      r.error(key, "'" + std::string(key) + "' of " + entry.key + " is missing (pJ per access; mm2 for area)");
    if (key == "r_cost") mem.r_cost = v;
    else if (key == "w_cost") mem.w_cost = v;
    else mem.area = v;
  }
  if (core.is_zigzag() && core.kind() == CoreKind::Compute) warn_zero_access_energy(r, ctx, what, mem);
  if (auto ops = list_node(r, "operands", true)) {
    for (const auto& item : *ops) {
      auto text = yamlx::to_text(item);
      auto op = text ? parse_operand(*text) : std::nullopt;
      if (!op) {
        ctx.diag.error(yamlx::loc(ctx, item), what + ": operand must be I1, I2 or O, got " + yamlx::describe(item));
        continue;
      }
      if (mem.stores(*op)) {
        ctx.diag.error(yamlx::loc(ctx, item), what + ": operand " + *text + " is listed twice");
        continue;
      }
      mem.operands.push_back(*op);
    }
  }
  if (auto ports = list_node(r, "ports", true))
    for (const auto& item : *ports) read_port(item, ctx, what, entry.key, mem);
  if (auto served = list_node(r, "served_dimensions", true)) {
    for (const auto& item : *served) {
      auto text = yamlx::to_text(item);
      if (!text || !is_array_dim(*text)) {
        ctx.diag.error(yamlx::loc(ctx, item),
                       what + ": served dimension " + yamlx::describe(item) + " does not match D<digit> (e.g. D1)");
        continue;
      }
      if (oa_known && std::find(oa.dimensions.begin(), oa.dimensions.end(), *text) == oa.dimensions.end()) {
        std::string dims;
        for (const auto& d : oa.dimensions) dims += (dims.empty() ? "" : ", ") + d;
        ctx.diag.error(yamlx::loc(ctx, item), what + ": Invalid served dimension " + *text +
                                                  " (the operational array has dimensions [" + dims + "])");
        continue;
      }
      mem.served_dimensions.push_back(*text);
    }
  }
  core.memories.push_back(std::move(mem));
}

void read_dataflows(const YAML::Node& node, const Ctx& ctx, const std::string& what, Core& core) {
  if (yamlx::is_null(node)) return;
  MapReader r(ctx, node, what);
  if (!r.ok()) return;
  for (const auto& e : r.items()) {
    Dataflow df;
    df.array_dimension = e.key;
    if (!is_array_dim(e.key)) {
      ctx.diag.error(yamlx::loc(ctx, e.key_node), what + ": key '" + e.key + "' does not match D<digit> (e.g. D1)");
      continue;
    }
    if (!e.value.IsSequence()) {
      ctx.diag.error(yamlx::loc(ctx, e.value), what + ": '" + e.key + "' must be a list of \"<DIM>, <factor>\"");
      continue;
    }
    for (const auto& item : e.value) {
      auto text = yamlx::to_text(item);
      auto u = text ? parse_unroll(*text) : std::nullopt;
      if (!u) {
        ctx.diag.error(yamlx::loc(ctx, item), what + ": entry " + yamlx::describe(item) +
                                                  " does not match '<DIM>, <factor>' (e.g. 'K, 16')");
        continue;
      }
      df.unrolling.push_back(*u);
    }
    core.dataflows.push_back(std::move(df));
  }
}

void read_zigzag(MapReader& top, const Ctx& ctx, const std::string& what, Core& core) {
  top.reject_unknown({"name", "type", "memories", "operational_array", "dataflows", "operator_types", "operand_precision"});
  bool oa_known = false;
  if (auto oa = top.node("operational_array", true)) {
    oa_known = read_operational_array(*oa, ctx, prefixed(what, "operational_array"), core.operational_array,
                                      core.type.kind == CoreKind::Compute);
    // Memory and off-chip cores declare [0, 0]; a compute core with no unit computed in 0 cycles.
    const auto& sizes = core.operational_array.sizes;
    if (oa_known && core.type.kind == CoreKind::Compute && std::find(sizes.begin(), sizes.end(), 0) != sizes.end())
      MapReader(ctx, *oa, prefixed(what, "operational_array"))
          .error("sizes", "a compute core's operational array needs every size >= 1 (0 leaves it no unit)");
  }
  if (auto mems = top.node("memories", true)) {
    MapReader mr(ctx, *mems, prefixed(what, "memories"));
    if (mr.ok()) {
      if (mr.items().empty()) mr.error("a core needs at least one memory");
      for (const auto& e : mr.items()) read_memory(e, ctx, what, core.operational_array, oa_known, core);
      for (Operand o : kOperands) {
        if (!mr.items().empty() && core.hierarchy(o).empty() && core.memories.size() == mr.items().size())
          mr.error("no memory stores operand " + std::string(name(o)) + " (every operand needs a memory level)");
      }
    }
  }
  if (auto df = top.node("dataflows", false)) read_dataflows(*df, ctx, prefixed(what, "dataflows"), core);
}

void read_aie2(MapReader& top, const Ctx& ctx, const std::string& what, Core& core) {
  if (core.type.kind == CoreKind::Compute)
    top.reject_unknown({"name", "type", "max_object_fifo_depth", "memory", "utilization", "operator_types",
                        "operand_precision"});
  else
    top.reject_unknown({"name", "type", "max_object_fifo_depth", "memory", "operator_types", "operand_precision"});
  if (auto v = top.integer("max_object_fifo_depth", true, 1)) core.max_object_fifo_depth = *v;
  if (core.type.kind == CoreKind::Compute)
    if (auto v = top.number("utilization", false, 0.0)) core.utilization = *v;
  if (auto mem = top.node("memory", true)) {
    MapReader r(ctx, *mem, prefixed(what, "memory"));
    if (r.ok()) {
      r.reject_unknown({"capacity", "bandwidth_min", "bandwidth_max"});
      if (auto v = r.integer("capacity", true, 0)) core.aie2_memory.capacity = *v;
      auto bmin = r.integer("bandwidth_min", true, 0);
      auto bmax = r.integer("bandwidth_max", true, 0);
      if (bmin) core.aie2_memory.bandwidth_min = *bmin;
      if (bmax) core.aie2_memory.bandwidth_max = *bmax;
      if (bmin && bmax && *bmin > *bmax)
        r.error("bandwidth_min", "Minimum bandwidth is greater than maximum bandwidth in memory (" +
                                     std::to_string(*bmin) + " > " + std::to_string(*bmax) + ")");
    }
  }
}

}  // namespace

const char* supported_core_types() {
  return "aie2.compute, aie2.memory, aie2.shim, zigzag.compute, zigzag.memory, zigzag.offchip";
}

std::optional<Core> read_core_node(const YAML::Node& root, const Ctx& ctx, const std::string& label) {
  const std::size_t errors_before = ctx.diag.error_count();
  Core core;
  core.source_file = ctx.file;
  core.where = yamlx::loc(ctx, root);
  MapReader top(ctx, root, label.empty() ? std::string("core") : label);
  if (!top.ok()) return std::nullopt;
  if (auto n = top.text("name", true)) core.name = *n;
  const std::string what = label.empty() ? "core '" + core.name + "'" : label + " ('" + core.name + "')";
  top.set_what(what);

  bool schema_known = true;
  if (auto t = top.text("type", false)) {
    std::string ns = "zigzag", kind = *t;
    if (auto dot = t->find('.'); dot != std::string::npos) {
      ns = t->substr(0, dot);
      kind = t->substr(dot + 1);
    }
    const std::string full = ns + "." + kind;
    if (ns == "zigzag") core.type.ns = Namespace::ZigZag;
    else if (ns == "aie2") core.type.ns = Namespace::Aie2;
    else {
      top.error("type", "Core '" + core.name + "' has unknown namespace '" + ns + "' in type '" + *t +
                            "'. Supported types: " + supported_core_types());
      schema_known = false;
    }
    if (schema_known) {
      const bool zz = core.type.ns == Namespace::ZigZag;
      if (kind == "compute") core.type.kind = CoreKind::Compute;
      else if (kind == "memory") core.type.kind = CoreKind::Memory;
      else if (kind == "offchip" && zz) core.type.kind = CoreKind::Offchip;
      else if (kind == "shim" && !zz) core.type.kind = CoreKind::Shim;
      else
        top.error("type", "Core '" + core.name + "' has unsupported type '" + full +
                              "'. Supported types: " + supported_core_types());
    }
  }
  if (schema_known) {
    if (core.is_zigzag()) read_zigzag(top, ctx, what, core);
    else read_aie2(top, ctx, what, core);
  }
  if (auto ot = top.node("operator_types", false); ot && !yamlx::is_null(*ot)) {
    if (auto list = top.text_list("operator_types", false)) core.operator_types = *list;
  }
  if (auto op = top.node("operand_precision", false); op && !yamlx::is_null(*op)) {
    MapReader r(ctx, *op, prefixed(what, "operand_precision"));
    if (r.ok()) {
      OperandPrecision p;
      if (auto v = r.text("input", false)) p.input = *v;
      if (auto v = r.text("accumulator", false)) p.accumulator = *v;
      for (const auto& e : r.items())
        if (e.key != "input" && e.key != "accumulator")
          ctx.diag.warning(yamlx::loc(ctx, e.key_node),
                           what + ": operand_precision key '" + e.key + "' is not used (known: input, accumulator)");
      core.operand_precision = p;
    }
  }
  if (ctx.diag.error_count() != errors_before) return std::nullopt;
  return core;
}

}  // namespace detail

namespace {
std::optional<Core> read_text_impl(const std::string& text, const std::string& label, Diagnostics& diag) {
  yamlx::Ctx ctx{label, diag};
  try {
    auto root = yamlx::parse(text, ctx);
    if (!root) return std::nullopt;
    return detail::read_core_node(*root, ctx, "");
  } catch (const YAML::Exception& e) {
    // yaml-cpp may still throw on exotic node shapes; report, never crash.
    diag.error(file_location(label), std::string("YAML error: ") + e.what());
    return std::nullopt;
  }
}

Core finish(std::optional<Core> core, const std::string& label, Diagnostics& local, Diagnostics* out) {
  if (out != nullptr) out->merge(local);
  local.throw_if_errors("invalid core file", label);
  if (!core) throw Error("invalid core file", file_location(label));
  return std::move(*core);
}
}  // namespace

std::optional<Core> read_core_file(const std::filesystem::path& path, Diagnostics& diagnostics) {
  const std::string label = path.string();
  auto text = yamlx::read_text(path, label, diagnostics);
  if (!text) return std::nullopt;
  return read_text_impl(*text, label, diagnostics);
}

Core load_core_file(const std::filesystem::path& path, Diagnostics* diagnostics) {
  Diagnostics local;
  auto core = read_core_file(path, local);
  return finish(std::move(core), path.string(), local, diagnostics);
}

Core parse_core_text(const std::string& text, const std::string& file_label, Diagnostics* diagnostics) {
  Diagnostics local;
  auto core = read_text_impl(text, file_label, local);
  return finish(std::move(core), file_label, local, diagnostics);
}

}  // namespace stream::hardware
