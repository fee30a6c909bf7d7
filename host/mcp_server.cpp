#include "mcp_server.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include <stream/error.hpp>
#include <stream/diagnostics/nearest_name.hpp>
#include <stream/io/bounded_json.hpp>

namespace stream::host {

namespace {

using json = nlohmann::json;

// The revisions this server speaks (tools only, whose messages have not changed between them).
const std::vector<std::string> kRevisions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

json error_reply(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json initialize(const json& params, const std::string& version) {
  const std::string asked = params.value("protocolVersion", "");
  const bool known = std::find(kRevisions.begin(), kRevisions.end(), asked) != kRevisions.end();
  return {{"protocolVersion", known ? asked : kRevisions.front()},
          {"capabilities", {{"tools", {{"listChanged", false}}}}},
          {"serverInfo", {{"name", "stream"}, {"version", version}}},
          {"instructions", "Stream maps neural-network workloads onto multi-core accelerators. Inputs are the "
                           "bundled examples (list_inputs) or files; results go to the server's output directory."}};
}

json tool_list(const std::vector<McpTool>& tools) {
  json list = json::array();
  for (const auto& t : tools)
    list.push_back({{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema},
                    {"outputSchema", t.output_schema}});
  return {{"tools", list}};
}

json tool_error(const std::string& text) {
  return {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"isError", true}};
}

// An argument the tool's schema does not list, when it says `additionalProperties: false`: an
// error naming it (and the nearest known name), since ignoring it ran the tool on its defaults
// (`run_mapping` with `hardwar` ran the default hardware and returned success).
std::string unknown_argument(const McpTool& tool, const json& arguments) {
  const json& schema = tool.input_schema;
  if (!schema.is_object() || schema.value("additionalProperties", true) || !arguments.is_object()) return "";
  const json properties = schema.value("properties", json::object());
  for (const auto& [key, value] : arguments.items()) {
    if (properties.contains(key)) continue;
    std::string known;
    std::vector<std::string> names;
    for (const auto& [name, p] : properties.items()) {
      known += (known.empty() ? "" : ", ") + name;
      names.push_back(name);
    }
    const auto nearest = stream::nearest_name(key, names);
    return "error: " + tool.name + " has no argument '" + key + "'" + (nearest ? " (did you mean '" + *nearest + "'?)" : "") +
           "; it takes " + (known.empty() ? "none" : known);
  }
  return "";
}

json call_tool(const McpTool& tool, const json& arguments) {
  if (const auto unknown = unknown_argument(tool, arguments); !unknown.empty()) return tool_error(unknown);
  try {
    json result = tool.call(arguments.is_object() ? arguments : json::object());
    return {{"content", json::array({{{"type", "text"}, {"text", result.dump(2)}}})},
            {"structuredContent", result},
            {"isError", false}};
  } catch (const McpInvalidParams&) {  // a protocol error: reply() answers it
    throw;
  } catch (const Error& e) {
    return tool_error(std::string("error: ") + e.what());
  } catch (const json::exception& e) {  // an argument of the wrong type
    return tool_error(std::string("error: bad arguments: ") + e.what());
  } catch (const std::exception& e) {
    return tool_error(std::string("internal error: ") + e.what());
  }
}

// The reply to one request, or null for a notification.
json reply(const json& message, const std::vector<McpTool>& tools, const std::string& version) {
  if (!message.is_object() || message.value("jsonrpc", "") != "2.0" || !message.contains("method"))
    return error_reply(message.is_object() && message.contains("id") ? message["id"] : json(), -32600, "invalid request");
  if (!message.contains("id")) return nullptr;
  const json& id = message["id"];
  const std::string method = message["method"].is_string() ? message["method"].get<std::string>() : "";
  if (message.contains("params") && !message["params"].is_object())
    return error_reply(id, -32602, "invalid params: params must be an object");
  const json params = message.value("params", json::object());
  json result;
  if (method == "initialize") {
    result = initialize(params, version);
  } else if (method == "ping") {
    result = json::object();
  } else if (method == "tools/list") {
    result = tool_list(tools);
  } else if (method == "tools/call") {
    const std::string name = params.value("name", "");
    const auto tool = std::find_if(tools.begin(), tools.end(), [&](const McpTool& t) { return t.name == name; });
    if (tool == tools.end()) return error_reply(id, -32602, "unknown tool '" + name + "'");
    try {
      result = call_tool(*tool, params.value("arguments", json::object()));
    } catch (const McpInvalidParams& e) {
      return error_reply(id, -32602, std::string("invalid params: ") + e.what());
    }
  } else {
    return error_reply(id, -32601, "method not found: " + method);
  }
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}};
}

// The next line of `in` into `line`, at most kMaxMcpMessageBytes of it (the rest is read past);
// false at the end of the input. `whole` says whether the line fitted.
bool next_line(std::istream& in, std::string& line, bool& whole) {
  line.clear();
  whole = true;
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (int c = buf->sbumpc(); c != std::char_traits<char>::eof(); c = buf->sbumpc()) {
    any = true;
    if (c == '\n') return true;
    if (line.size() < kMaxMcpMessageBytes) line.push_back(static_cast<char>(c));
    else whole = false;
  }
  in.setstate(std::ios::eofbit);
  return any;
}

}  // namespace

void serve_mcp(std::istream& in, std::ostream& out, const std::vector<McpTool>& tools, const std::string& version) {
  std::string line;
  for (bool whole = true; next_line(in, line, whole);) {
    if (whole && line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json message = whole ? io::parse_json_bounded<json>(line) : json(json::value_t::discarded);
    json answer;
    try {
      answer = !whole ? error_reply(nullptr, -32700, "parse error: a message over " + std::to_string(kMaxMcpMessageBytes >> 20) +
                                                           " MiB (one line) is not read")
               : message.is_discarded() ? error_reply(nullptr, -32700, "parse error (or nested deeper than 512 levels)")
                                        : reply(message, tools, version);
    } catch (const json::exception& e) {  // a known field of the wrong type (params.name a number, ...)
      answer = error_reply(message.is_object() ? message.value("id", json()) : json(), -32602,
                           std::string("invalid params: ") + e.what());
    }
    if (answer.is_null()) continue;
    out << answer.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
    out.flush();
  }
}

}  // namespace stream::host
