// A Model Context Protocol server over stdio: JSON-RPC 2.0 messages, one per line, on stdin and
// stdout (the MCP stdio transport). It answers initialize (echoing a protocol revision it knows,
// else its latest), ping, tools/list and tools/call, ignores notifications, and answers any other
// request with "method not found". A tool's stream::Error is a tool result with isError set and
// the error's text (file:line:column and the problem), not a protocol error, so an agent sees it.
// A tool whose input schema says `additionalProperties: false` refuses an argument its schema does
// not list, before it runs: a tool error naming the argument, the nearest known name and the
// names it takes.
#pragma once

#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace stream::host {

struct McpTool {
  std::string name;
  std::string description;
  nlohmann::json input_schema;   ///< JSON Schema of the arguments object
  nlohmann::json output_schema;  ///< JSON Schema of the structured result (an object)
  std::function<nlohmann::json(const nlohmann::json& arguments)> call;
};

/// Thrown by a tool for arguments it refuses before any work (a path longer than any file
/// system takes): the server answers the request with a JSON-RPC error -32602 (invalid params),
/// not a tool result.
class McpInvalidParams : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Serves until `in` ends. Progress and warnings must go elsewhere (stderr): `out` is the protocol's.
/// The longest message the server reads (bytes, one line): a longer one is skipped unread past
/// this and answered with a parse error, so a runaway client costs neither time nor memory.
inline constexpr std::size_t kMaxMcpMessageBytes = std::size_t{8} << 20;

void serve_mcp(std::istream& in, std::ostream& out, const std::vector<McpTool>& tools, const std::string& version);

}  // namespace stream::host
