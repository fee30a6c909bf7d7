// libFuzzer harness: the MCP server's request reader (host/mcp_server.cpp), the input as the lines
// a client sends on stdin, served with one tool that echoes its arguments. Beyond not crashing:
// every reply is one line of JSON-RPC 2.0 (an object with "jsonrpc": "2.0", an "id", and exactly
// one of "result" and "error"), and there are no more replies than lines, else the harness aborts.
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "mcp_server.hpp"

namespace {

using nlohmann::json;

[[noreturn]] void mcp_reply_broken(const std::string& why, const std::string& line) {
  std::cerr << "MCP reply broken: " << why << "\n" << line.substr(0, 500) << "\n";
  std::abort();
}

void check_reply(const std::string& line) {
  const json reply = json::parse(line, nullptr, false);
  if (!reply.is_object()) mcp_reply_broken("not a JSON object", line);
  if (reply.value("jsonrpc", "") != "2.0") mcp_reply_broken("no \"jsonrpc\": \"2.0\"", line);
  if (!reply.contains("id")) mcp_reply_broken("no id", line);
  if (reply.contains("result") == reply.contains("error")) mcp_reply_broken("not exactly one of result and error", line);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  stream::fuzz::quiet_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<stream::host::McpTool> tools{
      {"echo", "echo", json::object(), json::object(), [](const json& args) { return args; }}};
  const std::string text = stream::fuzz::as_text(data, size);
  std::istringstream in(text);
  std::ostringstream out;
  stream::fuzz::expect_clean_outcome([&] { stream::host::serve_mcp(in, out, tools, "fuzz"); });
  std::size_t lines = 0;  // as getline counts them: a last line without its newline is one
  for (const char c : text) lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;
  std::istringstream replies(out.str());
  std::size_t n = 0;
  for (std::string line; std::getline(replies, line); ++n) check_reply(line);
  if (n > lines) mcp_reply_broken("more replies than lines", out.str());
  return 0;
}
