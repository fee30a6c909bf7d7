// `stream blocks`: the reference blocks plugins provide. `list` shows each block's key, label and
// parameters with their defaults; `show KEY [--param k=v ...]` builds the block and prints its
// nodes with their loop dims, iterator kinds and operand maps (text or JSON).
#include <cctype>
#include <cstdio>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>
#include <stream/error.hpp>
#include <stream/ir/dimensions.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/io/utf8.hpp>

#include "../command.hpp"
#include "../block_catalog.hpp"
#include "../plugin_host.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::blocks_command {
namespace {

std::string shape_str(const Tensor& t) {
  std::string s;
  for (auto e : t.shape) s += (s.empty() ? "" : ", ") + std::to_string(e);
  return std::string(name(t.dtype)) + "[" + s + "]";
}

std::map<std::string, std::string> parse_params(const std::vector<std::string>& given) {
  std::map<std::string, std::string> out;
  for (const auto& kv : given) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error("--param expects NAME=VALUE, got '" + kv + "'");
    const std::string key = kv.substr(0, eq);
    if (!out.emplace(key, kv.substr(eq + 1)).second) throw Error("--param '" + key + "' given more than once");
  }
  return out;
}

void list_blocks(Registries& registries, const std::string& format) {
  const auto keys = registries.block_keys();
  if (format == "json") {
    std::cout << io::dump_json(blocks_json(registries), 2) << "\n";
    return;
  }
  if (keys.empty()) {
    std::cout << "no blocks (no plugin provides any)\n";
    return;
  }
  for (const auto& key : keys) {
    const BlockSpec& spec = registries.block(key);
    std::printf("%-18s %s\n", spec.key.c_str(), spec.label.c_str());
    for (const auto& p : spec.params) {
      std::string description = p.description;
      for (const auto& a : p.aliases) description += " (also '" + a + "')";
      std::printf("%-18s   %-16s %-7s default %-6s %s\n", "", p.name.c_str(), std::string(name(p.type)).c_str(),
                  p.default_value.c_str(), description.c_str());
    }
  }
}

nlohmann::ordered_json operand_json(const Node& n, std::size_t i) {
  const Tensor& t = *n.operand(i);
  nlohmann::ordered_json j{{"tensor", t.name}, {"dtype", std::string(name(t.dtype))}, {"shape", t.shape}};
  if (n.has_iteration_space()) {
    j["map"] = n.operand_mapping.at(i).str();
    const AccessRelation a = access_relation(n, i);
    j["access"] = std::string(name(a.kind));
    if (a.kind == AccessKind::DataDependent) j["index_tensor"] = a.index_tensor;
  }
  return j;
}

nlohmann::ordered_json node_json(const Node& n) {
  nlohmann::ordered_json j{{"name", n.name}, {"kind", std::string(name(n.kind))}};
  if (!n.type.empty()) j["type"] = n.type;
  nlohmann::ordered_json ins = nlohmann::ordered_json::array(), outs = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < n.num_operands(); ++i) (n.is_output_operand(i) ? outs : ins).push_back(operand_json(n, i));
  j["inputs"] = ins;
  j["outputs"] = outs;
  if (n.has_iteration_space()) {
    nlohmann::ordered_json dims = nlohmann::ordered_json::array();
    for (const auto& d : loop_dims(n))
      dims.push_back({{"name", d.name}, {"size", d.size}, {"iterator", std::string(name(d.iterator))}});
    j["loop_dims"] = dims;
    if (!n.reduction_axes.empty()) j["reduction_axes"] = n.reduction_axes;
  }
  if (n.fused_kernel) j["fused_kernel"] = *n.fused_kernel;
  return j;
}

void print_node_text(const Node& n) {
  std::printf("%-22s %-14s %s\n", n.name.c_str(), n.has_iteration_space() ? n.type.c_str() : std::string(name(n.kind)).c_str(),
              n.fused_kernel ? ("(" + *n.fused_kernel + ")").c_str() : "");
  if (n.has_iteration_space()) {
    std::string dims;
    for (const auto& d : loop_dims(n))
      dims += (dims.empty() ? "" : ", ") + d.name + "=" + std::to_string(d.size) + ":" +
              std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(name(d.iterator)[0]))));
    std::printf("    loops  (%s)", dims.c_str());
    if (!n.reduction_axes.empty()) {
      std::string axes;
      for (int a : n.reduction_axes) axes += (axes.empty() ? "" : ", ") + std::to_string(a);
      std::printf("  reduction_axes (%s)", axes.c_str());
    }
    std::printf("\n");
  }
  for (std::size_t i = 0; i < n.num_operands(); ++i) {
    const Tensor& t = *n.operand(i);
    std::string line = std::string(n.is_output_operand(i) ? "    out " : "    in  ") + t.name + " " + shape_str(t);
    if (n.has_iteration_space()) {
      line += "  " + n.operand_mapping.at(i).str();
      const AccessRelation a = access_relation(n, i);
      if (a.kind != AccessKind::Affine) {
        line += "  [" + std::string(name(a.kind));
        if (!a.index_tensor.empty()) line += " by " + a.index_tensor;
        line += "]";
      }
    }
    std::printf("%s\n", line.c_str());
  }
}

void show_block(Registries& registries, const std::string& key, const std::vector<std::string>& given,
                const std::string& format) {
  const BlockSpec& spec = registries.block(key);
  const BlockParams params = spec.resolve(parse_params(given));
  const Workload w = spec.build(params);
  std::size_t total_dims = 0;
  for (const auto& n : w.nodes()) total_dims += static_cast<std::size_t>(n.num_dims());
  const std::size_t unique = w.unified_dimensions().num_unique();
  if (format == "json") {
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (const auto& n : w.nodes()) nodes.push_back(node_json(n));
    nlohmann::ordered_json out{{"key", spec.key},
                       {"label", spec.label},
                       {"params", params.values()},
                       {"num_nodes", w.size()},
                       {"num_edges", w.edges().size()},
                       {"num_dimensions", total_dims},
                       {"num_unique_dimensions", unique},
                       {"nodes", nodes}};
    std::cout << io::dump_json(out, 2) << "\n";
    return;
  }
  std::string ps;
  for (const auto& [k, v] : params.values()) ps += (ps.empty() ? "" : " ") + k + "=" + v;
  std::printf("%s (%s): %s\n", spec.key.c_str(), spec.label.c_str(), ps.c_str());
  std::printf("%zu nodes, %zu edges, %zu loop dims, %zu unique dims\n\n", w.size(), w.edges().size(), total_dims, unique);
  for (const auto& n : w.nodes()) print_node_text(n);
}

void setup(CLI::App& app, HostContext& ctx) {
  auto* cmd = app.add_subcommand("blocks", "List and inspect the reference blocks (parameterised workloads)");
  cmd->require_subcommand(1);

  auto list_format = std::make_shared<std::string>("text");
  auto* list = cmd->add_subcommand("list", "List the blocks with their parameters and defaults");
  list->add_option("--format", *list_format, "Output format")->check(CLI::IsMember({"text", "json"}));
  list->callback([&ctx, list_format] { list_blocks(ctx.plugins().registries(), *list_format); });

  auto key = std::make_shared<std::string>();
  auto params = std::make_shared<std::vector<std::string>>();
  auto show_format = std::make_shared<std::string>("text");
  auto* show = cmd->add_subcommand("show", "Build a block and print its nodes, loop dims and maps");
  show->add_option("key", *key, "Block key (see `stream blocks list`)")->required();
  show->add_option("--param,-p", *params, "Block parameter NAME=VALUE (repeatable)")->allow_extra_args(false);
  show->add_option("--format", *show_format, "Output format")->check(CLI::IsMember({"text", "json"}));
  show->callback([&ctx, key, params, show_format] {
    show_block(ctx.plugins().registries(), *key, *params, *show_format);
  });
}

}  // namespace

STREAM_HOST_COMMAND(blocks, setup);

}  // namespace stream::host::blocks_command
