// serve_mcp (host/mcp_server.hpp) on malformed and hostile messages: each gets a JSON-RPC error
// reply with its id, and the server goes on to answer the next message.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_server.hpp"

namespace {

using nlohmann::json;
using stream::host::McpTool;

// Every line is answered (the test sends only requests), in order.
std::vector<json> serve(const std::vector<std::string>& lines) {
  const std::vector<McpTool> tools{{"echo", "echo", json::object(), json::object(), [](const json& a) { return a; }}};
  std::stringstream in, out;
  for (const auto& l : lines) in << l << "\n";
  stream::host::serve_mcp(in, out, tools, "test");
  std::vector<json> replies;
  for (std::string line; std::getline(out, line);) replies.push_back(json::parse(line));
  return replies;
}

const std::string kPing = R"({"jsonrpc": "2.0", "id": 99, "method": "ping"})";

int error_code(const json& reply) { return reply.contains("error") ? reply["error"]["code"].get<int>() : 0; }

}  // namespace

TEST(McpServer, ParamsThatAreNoObjectAreInvalidParams) {
  for (const char* params : {"\"text\"", "[1, 2]", "null", "7"}) {
    const auto r = serve({std::string(R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": )") + params + "}", kPing});
    ASSERT_EQ(r.size(), 2u) << params;
    EXPECT_EQ(error_code(r[0]), -32602) << r[0];
    EXPECT_EQ(r[0]["id"], 1);
    EXPECT_EQ(r[1]["id"], 99);  // still serving
    EXPECT_TRUE(r[1].contains("result"));
  }
}

TEST(McpServer, KnownFieldsOfTheWrongTypeAreInvalidParams) {
  const auto r = serve({R"({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": 5}})",
                        R"({"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {"protocolVersion": 20250618}})",
                        R"({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "echo", "arguments": {"a": 1}}})"});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(error_code(r[0]), -32602) << r[0];
  EXPECT_EQ(r[0]["id"], 2);
  EXPECT_EQ(error_code(r[1]), -32602) << r[1];
  EXPECT_EQ(r[1]["id"], 3);
  EXPECT_EQ(r[2]["result"]["structuredContent"]["a"], 1);
}

TEST(McpServer, AMessageNestedTooDeepIsAParseErrorNotACrash) {
  // 100,000 levels (a 200 KB line): copying or writing it would recurse that deep.
  const std::string deep = R"({"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"x": )" + std::string(100000, '[') +
                           std::string(100000, ']') + "}}";
  const auto r = serve({deep, kPing});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(error_code(r[0]), -32700) << r[0];
  EXPECT_EQ(r[1]["id"], 99);
  // 500 levels are within the bound: an ordinary request.
  const std::string fine = R"({"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"x": )" + std::string(500, '[') +
                           std::string(500, ']') + "}}";
  EXPECT_TRUE(serve({fine})[0].contains("result"));
}

TEST(McpServer, AMessageOverTheSizeLimitIsAParseErrorAndTheNextIsAnswered) {
  // 9 MiB on one line (a 9 MiB path for read_result_file, say): skipped unread past 8 MiB.
  const std::string huge = R"({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {"path": ")" +
                           std::string(9u << 20, 'a') + "\"}}}";
  const auto r = serve({huge, kPing});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(error_code(r[0]), -32700) << r[0].dump().substr(0, 200);
  EXPECT_NE(r[0]["error"]["message"].get<std::string>().find("over 8 MiB"), std::string::npos);
  EXPECT_EQ(r[1]["id"], 99);
  // Just under the limit it is an ordinary message.
  const std::string big = R"({"jsonrpc": "2.0", "id": 8, "method": "ping", "params": {"x": ")" + std::string((8u << 20) - 100, 'a') + "\"}}";
  EXPECT_TRUE(serve({big})[0].contains("result"));
}

// A schema with `additionalProperties: false` makes the server refuse an argument it does not
// list, as a tool error (isError), before the tool runs; a schema without it passes any.
TEST(McpServer, AClosedSchemaRefusesAnUnknownArgumentNamingItAndTheNearest) {
  int calls = 0;
  const json closed = {{"type", "object"},
                       {"properties", {{"hardware", {{"type", "string"}}}, {"workload", {{"type", "string"}}}}},
                       {"additionalProperties", false}};
  const std::vector<McpTool> tools{{"strict", "s", closed, json::object(), [&](const json& a) { ++calls; return a; }},
                                   {"open", "o", json::object(), json::object(), [&](const json& a) { ++calls; return a; }}};
  auto ask = [&](const std::string& tool, const json& arguments) {
    std::stringstream in, out;
    in << json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", {{"name", tool}, {"arguments", arguments}}}}.dump()
       << "\n";
    stream::host::serve_mcp(in, out, tools, "test");
    return json::parse(out.str())["result"];
  };
  const json typo = ask("strict", {{"hardwar", "x.yaml"}});
  EXPECT_TRUE(typo["isError"].get<bool>()) << typo;
  EXPECT_EQ(typo["content"][0]["text"], "error: strict has no argument 'hardwar' (did you mean 'hardware'?); it takes hardware, workload");
  const json far = ask("strict", {{"zzzzzzzz", 1}});
  EXPECT_EQ(far["content"][0]["text"], "error: strict has no argument 'zzzzzzzz'; it takes hardware, workload");
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(ask("strict", {{"workload", "w.onnx"}})["isError"].get<bool>());
  EXPECT_FALSE(ask("open", {{"anything", 1}})["isError"].get<bool>());
  EXPECT_EQ(calls, 2);
}
