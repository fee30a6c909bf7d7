// `stream parse MODEL`: loads a workload through the frontend registry and prints its affine form,
// as a readable table (--format text) or as JSON (--format json; schema in docs/workload-json.md,
// built by host/workload_json.hpp, shared with the Python module).
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>
#include <stream/error.hpp>
#include <stream/ir/dimensions.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/ir/workload.hpp>
#include <stream/io/utf8.hpp>

#include "../command.hpp"
#include "../workload_source.hpp"
#include "../plugin_host.hpp"
#include "../workload_json.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::parse_command {
namespace {

std::string shape_str(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void print_text(const Workload& w, std::ostream& out) {
  for (const auto& n : w.nodes()) {
    out << n.name << "  " << n.type << "  (" << name(n.kind) << ")\n";
    if (n.has_iteration_space()) {
      out << "    loops:";
      for (const auto& l : reported_loops(n)) out << " " << l.name << "=" << l.size << ":" << name(l.iterator).substr(0, 1);
      if (!n.reduction_axes.empty()) {
        out << "   normalised over";
        for (int a : n.reduction_axes) out << " " << n.dim_name(a);
      }
      out << "\n";
    }
    for (std::size_t i = 0; i < n.num_operands(); ++i) {
      const auto& t = *n.operand(i);
      out << "    " << (n.is_output_operand(i) ? "out " : "in  ") << t.name << " " << name(t.dtype);
      if (n.has_iteration_space() || t.declared_shape.empty()) out << shape_str(t.shape);
      else out << shape_str(t.model_shape()) << " (folded as " << shape_str(t.shape) << ")";
      if (n.has_iteration_space()) {
        out << "  " << n.operand_mapping[i].str();
        const auto kind = access_relation(n, i).kind;
        if (kind != AccessKind::Affine) out << "  [" << name(kind) << "]";
      }
      if (!t.layout.is_row_major(t.rank())) out << "  layout " << t.layout.str(t.rank());
      out << "\n";
    }
  }
  const auto j = workload_json(w)["totals"];
  out << "\n" << j["nodes"] << " nodes (" << j["computation_nodes"] << " computation, " << j["in_edges"] << " in-edges, "
      << j["out_edges"] << " out-edges, " << j["fusion_edges"] << " fusion edges), " << j["edges"] << " edges, "
      << j["loop_dims"] << " loop dims, " << j["unique_dims"] << " unique dims\n";
}

void setup(CLI::App& app, HostContext& ctx) {
  auto* cmd = app.add_subcommand("parse", "Load a workload (an ONNX model, ...) and print its affine form");
  auto source = std::make_shared<WorkloadSource>();
  auto format = std::make_shared<std::string>("text");
  cmd->add_option("MODEL", source->file, "Workload file (.onnx, .pt2 or any format a frontend plugin accepts)");
  cmd->add_option("--format", *format, "Output format")->check(CLI::IsMember({"text", "json"}));
  add_workload_source_options(*cmd, *source);
  cmd->add_option("--plugin-dir", ctx.plugin_dirs, "Extra directory to search for plugins (repeatable)");
  cmd->callback([&ctx, source, format] {
    const auto workload = load_workload(ctx, *source).workload;
    if (*format == "json") std::cout << io::dump_json(workload_json(workload), 2) << "\n";
    else print_text(workload, std::cout);
  });
}

}  // namespace

STREAM_HOST_COMMAND(parse, setup);

}  // namespace stream::host::parse_command
