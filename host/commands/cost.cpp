// `stream cost --hardware H`: what the accelerator costs in silicon before any workload runs, by
// the reference's built-in hardware cost model (hardware/hardware_cost.hpp): area in mm² and
// peak access energy per cycle, in total and per core and memory.
//
//   stream cost --hardware H [--technology-node N] [--format text|json] [--out FILE]
//
// Text is a short table on stdout; json is the reference's report (hardware_cost_report), on
// stdout or, with --out, in FILE.
#include <cstdio>
#include <iostream>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/hardware/hardware_cost.hpp>
#include <stream/io/file_output.hpp>
#include <stream/io/utf8.hpp>

#include "../command.hpp"
#include "../inputs.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::cost_command {
namespace {

struct Options {
  std::string hardware = "hardware/tpu_like_quad_core.yaml";
  std::string technology_node;
  std::string format = "text";
  std::string out;
};

void print_text(const hardware::HardwareCostReport& r) {
  std::printf("%s, priced at %s\n", io::to_valid_utf8(r.bundle_name).c_str(), r.technology_node.c_str());
  std::printf("%-5s %-24s %-16s %14s %18s\n", "core", "name", "type", "area (mm2)", "peak (pJ/cycle)");
  for (const auto& c : r.cores) {
    double peak = 0;
    for (const auto& m : c.memories)
      if (m.counted) peak += static_cast<double>(m.instances * m.nb_ports) * m.read_energy_pj;
    if (c.compute && c.compute->modelled) peak += static_cast<double>(c.compute->nb_units) * c.compute->energy_per_op_pj;
    std::printf("%-5d %-24s %-16s %14.7g %18.7g%s\n", c.core_id, io::to_valid_utf8(c.name).c_str(),
                c.core_type.c_str(), c.area_mm2, peak, c.on_die ? "" : "  (off die)");
  }
  std::printf("%-5s %-24s %-16s %14.7g %18.7g\n", "total", "", "", r.total_area_mm2, r.peak_access_energy_pj_per_cycle);
  std::printf("memory %.7g mm2, compute %.7g mm2; on-die memory %lld bits; off-die access %.7g pJ/cycle\n",
              r.memory_area_mm2, r.compute_area_mm2, static_cast<long long>(r.on_die_memory_bits),
              r.off_die_access_energy_pj_per_cycle);
  for (const auto& w : r.warnings) std::cerr << "[stream cost] warning: " << w << "\n";
}

void cost(const Options& o) {
  const auto acc = hardware::load_accelerator(resolve_input(o.hardware));
  const auto r = hardware::hardware_cost(acc, o.technology_node.empty() ? std::nullopt : std::optional(o.technology_node));
  if (!o.out.empty()) {
    io::write_file(o.out, hardware::hardware_cost_json(r));
    std::cerr << "[stream cost] report in " << o.out << "\n";
  }
  if (o.format == "json" && o.out.empty()) std::cout << hardware::hardware_cost_json(r);
  else print_text(r);
}

void setup(CLI::App& app, HostContext&) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("cost", "Area and peak access energy of an accelerator (hardware cost model)");
  cmd->add_option("--hardware", o->hardware, "Accelerator YAML")->capture_default_str();
  cmd->add_option("--technology-node", o->technology_node, "Technology node (beats the file's technology_node)");
  cmd->add_option("--format", o->format, "Output format")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->add_option("--out", o->out, "Write the JSON report to this file");
  cmd->callback([o] { cost(*o); });
}

}  // namespace

STREAM_HOST_COMMAND(cost, setup);

}  // namespace stream::host::cost_command
