// `stream plugins`: what plugins were found, what they provide, and whether they load.
#include <iostream>

#include <nlohmann/json.hpp>
#include <stream/io/utf8.hpp>

#include "../command.hpp"
#include "../plugin_host.hpp"
#include "../plugin_json.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::plugins_command {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string provides_summary(const PluginManifest& m) {
  std::vector<std::string> parts;
  std::vector<std::string> fe;
  for (const auto& f : m.frontends) fe.push_back(f.name);
  if (!fe.empty()) parts.push_back("frontends: " + join(fe));
  if (!m.onnx_ops.empty()) parts.push_back("onnx_ops: " + std::to_string(m.onnx_ops.size()));
  if (!m.blocks.empty()) parts.push_back("blocks: " + join(m.blocks));
  if (!m.decompositions.empty()) parts.push_back("decompositions: " + join(m.decompositions));
  for (const auto& b : m.cost_backends) parts.push_back("cost_backend: " + b.name + " (" + join(b.core_types) + ")");
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s.empty() ? "-" : s;
}

void setup(CLI::App& app, HostContext& ctx) {
  auto* cmd = app.add_subcommand("plugins", "List the plugins found, what they provide, and their status");
  auto format = std::make_shared<std::string>("text");
  auto load = std::make_shared<bool>(false);
  cmd->add_option("--format", *format, "Output format")->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--load", *load, "Load every plugin (otherwise libraries are opened only when needed)");
  cmd->callback([&ctx, format, load] {
    auto& host = ctx.plugins();
    if (*load) host.load_all();
    if (*format == "json") {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& r : host.plugins()) out.push_back(plugin_json(r));
      std::cout << io::dump_json(out, 2) << "\n";
      return;
    }
    std::printf("%-18s %-9s %-10s %8s  %s\n", "ID", "VERSION", "STATUS", "PRIORITY", "PROVIDES");
    for (const auto& r : host.plugins()) {
      std::printf("%-18s %-9s %-10s %8lld  %s\n", r.manifest.id.c_str(), r.manifest.version.c_str(),
                  std::string(name(r.status)).c_str(), static_cast<long long>(r.manifest.priority),
                  provides_summary(r.manifest).c_str());
      std::printf("%-18s path: %s\n", "", r.manifest_path.parent_path().string().c_str());
      if (!r.reason.empty()) std::printf("%-18s why:  %s\n", "", r.reason.c_str());
      for (const auto& w : r.warnings) std::printf("%-18s warning: %s\n", "", w.c_str());
    }
  });
}

}  // namespace

STREAM_HOST_COMMAND(plugins, setup);

}  // namespace stream::host::plugins_command
