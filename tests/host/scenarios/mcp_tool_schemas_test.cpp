// The MCP server's tools (host/mcp_tools.cpp) take only the arguments they list: every input
// schema says `additionalProperties: false` and describes each property for the agent, and an
// argument a tool does not know is a tool error naming it. Before, `run_mapping` with a misspelt
// `hardwar` ran the default hardware and returned success.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "host_context.hpp"
#include "mcp_server.hpp"
#include "mcp_tools.hpp"
#include "stream_cli.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The JSON-RPC reply to one tools/call through the server.
json call(const std::vector<stream::host::McpTool>& tools, const std::string& tool, const json& arguments) {
  const json request = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                        {"params", {{"name", tool}, {"arguments", arguments}}}};
  std::stringstream in(request.dump() + "\n"), out;
  stream::host::serve_mcp(in, out, tools, "test");
  return json::parse(out.str());
}

}  // namespace

TEST(McpToolSchemas, EveryInputSchemaIsClosedAndDescribesEachProperty) {
  const auto dir = stream::test::fresh_scratch_dir("host", "mcp_schemas");
  stream::host::HostContext ctx;
  const auto tools = stream::host::stream_mcp_tools(ctx, dir);
  ASSERT_EQ(tools.size(), 11u);
  for (const auto& t : tools) {
    EXPECT_EQ(t.input_schema.value("additionalProperties", true), false) << t.name;
    for (const auto& [name, property] : t.input_schema.at("properties").items())
      EXPECT_FALSE(property.value("description", std::string()).empty()) << t.name << "." << name;
  }
}

TEST(McpToolSchemas, AnUnknownArgumentIsAToolErrorNamingItAndNothingRuns) {
  const auto dir = stream::test::fresh_scratch_dir("host", "mcp_unknown_argument");
  stream::host::HostContext ctx;
  const auto tools = stream::host::stream_mcp_tools(ctx, dir);
  const json r = call(tools, "run_mapping", {{"hardwar", "hardware/simba_small.yaml"}, {"experiment_id", "typo"}});
  ASSERT_TRUE(r.contains("result")) << r;
  EXPECT_TRUE(r["result"]["isError"].get<bool>()) << r;
  const auto text = r["result"]["content"][0]["text"].get<std::string>();
  EXPECT_NE(text.find("run_mapping has no argument 'hardwar' (did you mean 'hardware'?)"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(dir / "typo"));  // the default run did not happen
  // Every tool refuses one, those without arguments too.
  for (const auto& t : tools) {
    const json e = call(tools, t.name, {{"no_such_argument", 1}});
    EXPECT_TRUE(e["result"]["isError"].get<bool>()) << t.name << ": " << e;
    EXPECT_NE(e.dump().find("'no_such_argument'"), std::string::npos) << t.name << ": " << e;
  }
}
