// `stream mcp [--out DIR]`: a Model Context Protocol server on stdin/stdout for AI agents
// (host/mcp_server.hpp), with the tools of host/mcp_tools.hpp. Results go under DIR (default
// mcp-outputs); nothing else is written. Progress and warnings go to stderr, as for every command.
#include <iostream>

#include <stream/version.hpp>

#include "../command.hpp"
#include "../mcp_server.hpp"
#include "../mcp_tools.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::mcp_command {
namespace {

void setup(CLI::App& app, HostContext& ctx) {
  auto out = std::make_shared<std::string>("mcp-outputs");
  auto* cmd = app.add_subcommand("mcp", "Serve the Model Context Protocol on stdin/stdout (tools for AI agents)");
  cmd->add_option("--out", *out, "Directory the run and sweep tools write to (and read_result_file reads)")
      ->capture_default_str();
  cmd->callback([&ctx, out] {
    serve_mcp(std::cin, std::cout, stream_mcp_tools(ctx, *out), version_string);
  });
}

}  // namespace

STREAM_HOST_COMMAND(mcp, setup);

}  // namespace stream::host::mcp_command
