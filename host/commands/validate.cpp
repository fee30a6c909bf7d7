// `stream validate`: read a hardware description (and optionally a workload and a mapping) the way
// a compiler reads sources: report every problem with file:line:column and the rule broken, or
// print a readable summary of what was understood. With a workload and no mapping, it prints (and
// can write) the automatic mapping. A workload is also split into the fusion groups `stream run`
// would schedule and each is checked as run checks it before solving (schedule/group_structure.hpp).
// The checks and the JSON form are host/validation.hpp, shared with the Python module.
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/ir/workload.hpp>
#include <stream/mapping/auto_mapping.hpp>
#include <stream/mapping/mapping.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/io/utf8.hpp>

#include "../command.hpp"
#include "../validation.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::validate_command {
namespace {

using namespace stream::hardware;

std::string bits_text(std::int64_t bits) {
  std::ostringstream os;
  os << bits << " bits";
  const double bytes = static_cast<double>(bits) / 8.0;
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = bytes;
  int u = 0;
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    ++u;
  }
  if (bits % 8 == 0) os << " (" << std::setprecision(4) << v << " " << units[u] << ")";
  return os.str();
}

std::string ids_text(const std::vector<int>& ids) {
  // Compress runs: [0, 1, 2, 3, 5] -> 0-3, 5.
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(ids[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

std::string array_text(const Core& c) {
  if (c.is_aie2()) return "AIE tile";
  std::string out;
  for (std::size_t i = 0; i < c.operational_array.sizes.size(); ++i)
    out += (i ? "x" : "") + std::to_string(c.operational_array.sizes[i]);
  return out.empty() ? "-" : out + " (" + std::to_string(c.total_unit_count()) + " units)";
}

void print_summary(std::ostream& out, const Accelerator& acc) {
  out << "accelerator '" << acc.name << "' (" << acc.source_file << "): " << acc.size() << " cores, namespace "
      << name(acc.core_namespace()) << ", offchip core " << acc.offchip_core_id << "\n";
  if (acc.technology_node) out << "technology node: " << *acc.technology_node << "\n";
  out << "cores:\n";
  const auto reps = acc.performance_representatives();
  for (const Core& c : acc.cores) {
    out << "  " << std::setw(3) << c.id << "  " << std::left << std::setw(16) << c.name << std::setw(16) << c.type.str()
        << std::right << " array " << array_text(c) << ", capacity " << bits_text(c.memory_capacity());
    if (acc.coordinates.count(c.id)) {
      const auto& xy = acc.coordinates.at(c.id);
      out << ", at [" << xy[0] << ", " << xy[1] << "]";
    }
    if (reps[static_cast<std::size_t>(c.id)] != c.id) out << ", same as core " << reps[static_cast<std::size_t>(c.id)];
    out << "\n";
    if (reps[static_cast<std::size_t>(c.id)] != c.id) continue;  // details once per identical group
    if (c.is_zigzag()) {
      for (std::size_t m = 0; m < c.memories.size(); ++m) {
        const Memory& mem = c.memories[m];
        std::string ops;
        for (Operand o : mem.operands) ops += (ops.empty() ? "" : ",") + std::string(name(o));
        out << "         L" << m << " " << std::left << std::setw(16) << mem.name << std::right << bits_text(mem.size)
            << " x" << c.memory_instances(m) << " [" << ops << "]\n";
      }
    } else {
      out << "         memory " << bits_text(c.aie2_memory.capacity) << ", bandwidth " << c.aie2_memory.bandwidth_min
          << ".." << c.aie2_memory.bandwidth_max << " bits/cycle, object FIFO depth " << c.max_object_fifo_depth << "\n";
    }
    if (c.operator_types) {
      std::string ops;
      for (const auto& t : *c.operator_types) ops += (ops.empty() ? "" : ", ") + t;
      out << "         operator types: " << ops << "\n";
    }
  }
  const auto active = acc.active_links();
  std::map<std::size_t, std::vector<int>> by_connection;
  for (int l : active) by_connection[acc.links()[static_cast<std::size_t>(l)].connection].push_back(l);
  // One pass over the edges (not one per connection: a file may list millions of pairs).
  std::map<std::size_t, std::size_t> pairs_of;
  for (const auto& e : acc.edges()) ++pairs_of[acc.links()[static_cast<std::size_t>(e[2])].connection];
  out << "connections after replacement (" << by_connection.size() << " of " << acc.connectivity.size()
      << " entries carry traffic):\n";
  for (const auto& [ci, links] : by_connection) {
    const Connection& c = acc.connectivity[ci];
    out << "  [" << ci << "] " << name(c.type) << " " << ids_text(c.cores) << ", " << c.bandwidth
        << " bits/cycle, " << pairs_of[ci] << " directed pairs";
    if (c.dma)
      out << ", dma burst " << c.dma->burst_bits << " bits, setup " << c.dma->setup_cycles << " cycles, "
          << c.dma->max_strides << " strides";
    out << "\n";
  }
  if (by_connection.size() < acc.connectivity.size())
    out << "  (" << acc.connectivity.size() - by_connection.size()
        << " entries fully replaced by later ones; see the warnings)\n";
  std::vector<int> unconnected;
  for (const Core& c : acc.cores)
    if (!acc.in_graph(c.id)) unconnected.push_back(c.id);
  if (!unconnected.empty()) out << "not connected: cores " << ids_text(unconnected) << "\n";
  for (const auto& g : acc.memory_sharing) out << "memory shared by cores " << ids_text(g.cores) << "\n";
}

void print_mapping(std::ostream& out, const mapping::Mapping& m) {
  for (const auto& l : m.layers) {
    out << "  " << l.name << ": cores " << ids_text(l.cores());
    if (!l.splits().empty()) {
      out << ", split";
      for (const auto& s : l.splits()) out << " D" << s.dim << "x" << s.split;
    }
    out << "\n";
  }
  for (const auto& g : m.fused_groups) {
    out << "  fused group " << g.name << " (" << g.layers.size() << " layers), intra-core tiling:";
    if (g.intra_core_tiling.empty()) out << " none";
    for (const auto& t : g.intra_core_tiling) out << " " << t.dim_text() << "=" << t.tile;
    out << "\n";
  }
}

struct Options : ValidateRequest {
  std::string write_mapping;
  std::string format = "text";
  bool quiet = false;
};

void run(const Options& opt, HostContext& ctx) {
  const Validation v = validate_inputs(opt, ctx);
  const auto& diag = v.diag;
  const auto& acc = v.accelerator;
  const auto& map = v.mapping;
  const auto& wl = v.workload;
  const auto fusion_groups = v.fusion_groups;
  const auto& generated = v.generated;
  if (opt.format == "json") {
    if (!diag.has_errors() && !opt.write_mapping.empty() && (generated || map))
      mapping::write_mapping_file(generated ? *generated : *map, opt.write_mapping);
    std::cout << io::dump_json(validation_json(v, opt), 2) << "\n";
    if (diag.has_errors()) ctx.exit_code = 2;
    return;
  }
  if (diag.has_errors()) {
    for (const auto& d : diag.errors()) std::cerr << d.str() << "\n";
    std::cerr << diag.error_count() << (diag.error_count() == 1 ? " error" : " errors") << "\n";
    ctx.exit_code = 2;
    return;
  }
  if (!opt.quiet) {
    print_summary(std::cout, *acc);
    if (wl) {
      std::cout << "workload " << opt.workload << ": " << wl->size() << " nodes, " << wl->computation_nodes().size()
                << " computation nodes, " << fusion_groups << " fusion group" << (fusion_groups == 1 ? "" : "s") << "\n";
    }
    if (map) {
      std::cout << "mapping " << opt.mapping << ": " << map->layers.size() << " layer entries, " << map->fused_groups.size()
                << " fused groups" << (wl ? ", every computation node matched" : "") << "\n";
      print_mapping(std::cout, *map);
    }
    if (generated) {
      std::cout << "automatic mapping:\n";
      print_mapping(std::cout, *generated);
    }
  }
  if (!opt.write_mapping.empty()) {
    if (!generated && !map) throw Error("--write-mapping needs --workload (to generate a mapping) or --mapping");
    mapping::write_mapping_file(generated ? *generated : *map, opt.write_mapping);
    if (!opt.quiet) std::cout << "mapping written to " << opt.write_mapping << "\n";
  }
  std::cout << "valid" << (diag.warnings().empty() ? "" : " (" + std::to_string(diag.warnings().size()) + " warnings)")
            << "\n";
}

void setup(CLI::App& app, HostContext& ctx) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("validate", "Check a hardware description (and a workload and mapping) and summarise it");
  cmd->add_option("--hardware", opt->hardware, "Accelerator YAML file")->required();
  cmd->add_option("--workload", opt->workload, "Workload (any format a frontend plugin reads, e.g. .onnx)");
  cmd->add_option("--mapping", opt->mapping, "Mapping YAML file; without it and with --workload, the automatic mapping is shown");
  cmd->add_option("--tiling", opt->tiling,
                  "Intra-core tiling for the automatic mapping, e.g. Gemm_Left.D1=128,Gemm_Down.D2=128");
  cmd->add_option("--write-mapping", opt->write_mapping, "Write the (given or generated) mapping to this YAML file");
  cmd->add_flag("-q,--quiet", opt->quiet, "Print only 'valid' or the errors");
  cmd->add_option("--format", opt->format, "Output format: text (summary, errors on stderr) or json (everything on stdout)")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->callback([opt, &ctx] { run(*opt, ctx); });
}

}  // namespace

STREAM_HOST_COMMAND(validate, setup);

}  // namespace stream::host::validate_command
