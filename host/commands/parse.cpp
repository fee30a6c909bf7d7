// `stream parse MODEL`: loads a workload through the frontend registry and prints its affine form,
// as a readable table (--format text) or as JSON (--format json; schema in docs/workload-json.md).
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>
#include <stream/error.hpp>
#include <stream/ir/dimensions.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/ir/workload.hpp>
#include <stream/report/utf8.hpp>

#include "../command.hpp"
#include "../workload_source.hpp"
#include "../plugin_host.hpp"

namespace stream::host {
namespace {

std::string shape_str(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// Iterator kinds as reported: a normalization's normalised axes are reductions (the node's
// identity maps alone would call them parallel).
std::vector<LoopDim> reported_loops(const Node& n) {
  auto loops = loop_dims(n);
  for (int a : n.reduction_axes)
    if (a >= 0 && static_cast<std::size_t>(a) < loops.size()) loops[static_cast<std::size_t>(a)].iterator = IteratorKind::Reduction;
  return loops;
}

nlohmann::json operand_json(const Node& n, std::size_t i) {
  const auto& t = *n.operand(i);
  nlohmann::json j{{"tensor", t.name},
                   {"role", n.is_output_operand(i) ? "output" : "input"},
                   {"dtype", std::string(name(t.dtype))},
                   {"shape", t.shape}};
  if (n.has_iteration_space()) {
    j["map"] = n.operand_mapping[i].str();
    j["access"] = std::string(name(access_relation(n, i).kind));
  } else {
    j["map"] = nullptr;
    j["access"] = nullptr;
  }
  return j;
}

nlohmann::json workload_json(const Workload& w) {
  nlohmann::json nodes = nlohmann::json::array();
  std::map<std::string, int> by_type;
  std::int64_t loop_total = 0;
  std::map<std::string, std::int64_t> kinds;
  for (const auto& n : w.nodes()) {
    nlohmann::json j{{"name", n.name}, {"type", n.type}, {"kind", std::string(name(n.kind))}};
    nlohmann::json loops = nlohmann::json::array();
    if (n.has_iteration_space()) {
      ++by_type[n.type];
      for (const auto& l : reported_loops(n))
        loops.push_back({{"name", l.name}, {"size", l.size}, {"iterator", std::string(name(l.iterator))}});
      loop_total += n.num_dims();
    }
    j["loop_dims"] = loops;
    nlohmann::json ops = nlohmann::json::array();
    for (std::size_t i = 0; i < n.num_operands(); ++i) ops.push_back(operand_json(n, i));
    j["operands"] = ops;
    if (n.kind == NodeKind::Normalization) j["reduction_axes"] = n.reduction_axes;
    if (n.fused_kernel) j["fused_kernel"] = *n.fused_kernel;
    ++kinds[std::string(name(n.kind))];
    nodes.push_back(j);
  }
  nlohmann::json totals{{"nodes", w.size()},
                        {"edges", w.edges().size()},
                        {"computation_nodes", w.computation_nodes().size()},
                        {"in_edges", kinds["in_edge"]},
                        {"out_edges", kinds["out_edge"]},
                        {"fusion_edges", kinds["fusion_edge"]},
                        {"normalization_nodes", kinds["normalization"]},
                        {"tensors", w.tensors().size()},
                        {"loop_dims", loop_total},
                        {"unique_dims", w.unified_dimensions().num_unique()},
                        {"by_type", by_type}};
  return {{"nodes", nodes}, {"totals", totals}};
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
      out << "    " << (n.is_output_operand(i) ? "out " : "in  ") << t.name << " " << name(t.dtype) << shape_str(t.shape);
      if (n.has_iteration_space()) {
        out << "  " << n.operand_mapping[i].str();
        const auto kind = access_relation(n, i).kind;
        if (kind != AccessKind::Affine) out << "  [" << name(kind) << "]";
      }
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
    if (*format == "json") std::cout << report::dump_json(workload_json(workload), 2) << "\n";
    else print_text(workload, std::cout);
  });
}

}  // namespace

STREAM_HOST_COMMAND(parse, setup);

}  // namespace stream::host
