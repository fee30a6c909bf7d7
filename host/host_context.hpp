// The state every subcommand shares: the plugin directories from the command line, the exit
// code a command sets, and the plugin host (discovered on first use). Kept apart from CLI11
// (command.hpp) so that the host's code that runs commands does not compile the CLI parser: CLI11
// is header-only, and its global validators alone cost seconds of build per file that includes it.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

namespace stream::host {

class PluginHost;

struct HostContext {
  std::vector<std::filesystem::path> plugin_dirs;  ///< from --plugin-dir, in order
  int exit_code = 0;
  /// The plugin host, discovering plugins on first use (after the command line is parsed).
  PluginHost& plugins();

  HostContext();
  ~HostContext();

 private:
  std::unique_ptr<PluginHost> host_;
};

}  // namespace stream::host
