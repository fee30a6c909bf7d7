// How subcommands join the `stream` CLI.
//
// Each subcommand lives in its own file under host/commands/ and registers itself with
// STREAM_HOST_COMMAND; main() builds the CLI11 app from every registered command, in name order.
// A command's setup function adds its CLI11 subcommand and a callback. The callback reports bad
// input by throwing stream::Error (main prints it and exits 2) or sets ctx.exit_code.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "host_context.hpp"

namespace stream::host {

using CommandSetup = std::function<void(CLI::App& app, HostContext& ctx)>;

bool register_command(const std::string& name, CommandSetup setup);
/// Registered commands in name order.
std::vector<std::pair<std::string, CommandSetup>> registered_commands();

}  // namespace stream::host

#define STREAM_HOST_COMMAND(ID, SETUP) \
  [[maybe_unused]] static const bool stream_host_command_##ID = ::stream::host::register_command(#ID, SETUP)
