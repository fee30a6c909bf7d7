#include "command.hpp"

#include <map>

#include "plugin_host.hpp"

namespace stream::host {

namespace {
std::map<std::string, CommandSetup>& table() {
  static std::map<std::string, CommandSetup> commands;
  return commands;
}
}  // namespace

bool register_command(const std::string& name, CommandSetup setup) {
  table()[name] = std::move(setup);
  return true;
}

std::vector<std::pair<std::string, CommandSetup>> registered_commands() {
  return {table().begin(), table().end()};
}

HostContext::HostContext() = default;
HostContext::~HostContext() = default;

PluginHost& HostContext::plugins() {
  if (!host_) host_ = std::make_unique<PluginHost>(PluginHostOptions::from_environment(plugin_dirs));
  return *host_;
}

}  // namespace stream::host
