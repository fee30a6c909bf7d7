// The MCP tools with `mapping: optimize?...` (host/mcp_tools.cpp): run_mapping returns the
// optimizer's best with an `optimizer` object, a bad option is a tool error naming it, and
// cancel_job stops an optimize job between batches keeping its best (the job ends done, its
// result cut short), where a plain run's cancellation removes everything.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "bad_optimize_options.hpp"
#include "host_context.hpp"
#include "mcp_server.hpp"
#include "mcp_tools.hpp"
#include "stream_cli.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The tool result of one tools/call through the server.
json call_optimize_tool(const std::vector<stream::host::McpTool>& tools, const std::string& tool, const json& arguments) {
  const json request = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                        {"params", {{"name", tool}, {"arguments", arguments}}}};
  std::stringstream in(request.dump() + "\n"), out;
  stream::host::serve_mcp(in, out, tools, "test");
  return json::parse(out.str()).at("result");
}

// The job's status once `done(status)` holds, polling for at most two minutes (a loaded machine).
json wait_for_job(const std::vector<stream::host::McpTool>& tools, const json& job, bool (*done)(const json&)) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  json status;
  do {
    status = call_optimize_tool(tools, "job_status", job)["structuredContent"];
    if (done(status)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < until);
  return status;
}

}  // namespace

// Beside the automatic run: the optimizer's automatic figures are that run's, its best is the
// result's and never worse, and its files are among the run's.
TEST(McpOptimize, RunMappingReportsTheOptimizersFigures) {
  const auto dir = stream::test::fresh_scratch_dir("host", "mcp_optimize");
  stream::host::HostContext ctx;
  const auto tools = stream::host::stream_mcp_tools(ctx, dir);
  const json automatic = call_optimize_tool(tools, "run_mapping", {{"experiment_id", "auto"}});
  ASSERT_FALSE(automatic["isError"].get<bool>()) << automatic;
  EXPECT_FALSE(automatic["structuredContent"].contains("optimizer"));
  const json r = call_optimize_tool(tools, "run_mapping", {{"mapping", "optimize?evaluations=20&seed=3"}, {"experiment_id", "opt"}});
  ASSERT_FALSE(r["isError"].get<bool>()) << r;
  const json& s = r["structuredContent"];
  const json& o = s["optimizer"];
  EXPECT_EQ(o["spent"], 20) << o;
  EXPECT_EQ(o["cut_short"], false) << o;
  EXPECT_EQ(o["automatic"], automatic["structuredContent"]["total_latency"]) << o;
  EXPECT_EQ(o["automatic_latency"], automatic["structuredContent"]["total_latency"]) << o;
  EXPECT_EQ(o["best"], s["total_latency"]) << o;
  EXPECT_LE(s["total_latency"].get<std::int64_t>(), automatic["structuredContent"]["total_latency"].get<std::int64_t>());
  EXPECT_EQ(o["best_mapping"], "opt/best_mapping.yaml");
  const auto files = s["files"].get<std::vector<std::string>>();
  for (const char* f : {"opt/best_mapping.yaml", "opt/optimize.yaml"})
    EXPECT_NE(std::find(files.begin(), files.end(), f), files.end()) << f;
}

TEST(McpOptimize, ABadOptionIsAToolErrorNamingIt) {
  const auto dir = stream::test::fresh_scratch_dir("host", "mcp_optimize_bad");
  stream::host::HostContext ctx;
  const auto tools = stream::host::stream_mcp_tools(ctx, dir);
  for (const auto& c : stream::test::kBadOptimizeOptions)
    for (const char* tool : {"run_mapping", "submit_run"}) {
      const json r = call_optimize_tool(tools, tool, {{"mapping", c.text}, {"experiment_id", "bad"}});
      EXPECT_TRUE(r["isError"].get<bool>()) << tool << ": " << r;
      EXPECT_NE(r.dump().find(c.says), std::string::npos) << tool << ": " << r;
    }
  EXPECT_FALSE(fs::exists(dir / "bad"));
  // The sweep tool stops before any point too.
  const json sweep = call_optimize_tool(tools, "sweep", {{"spec", {{"axes", {{"mapping", {"auto", "optimize?evaluations=0"}}}}}}});
  EXPECT_TRUE(sweep["isError"].get<bool>()) << sweep;
  EXPECT_NE(sweep.dump().find("evaluations must be an integer"), std::string::npos) << sweep;
}

// A budget far beyond the test's time: cancelled once the search reports progress (after the
// automatic run), the job ends done with the best found so far, never worse than automatic.
TEST(McpOptimize, CancellingAnOptimizeJobKeepsTheBest) {
  const auto dir = stream::test::fresh_scratch_dir("host", "mcp_optimize_cancel");
  stream::host::HostContext ctx;
  const auto tools = stream::host::stream_mcp_tools(ctx, dir);
  const json submitted = call_optimize_tool(
      tools, "submit_run", {{"mapping", "optimize?evaluations=1000000&seed=3&jobs=1"}, {"experiment_id", "long"}});
  ASSERT_FALSE(submitted["isError"].get<bool>()) << submitted;
  const json job = {{"job", submitted["structuredContent"]["job"]}};
  const json searching = wait_for_job(tools, job, [](const json& s) {
    return s["status"] != "running" || s["last_step"].get<std::string>().find(" evaluations, best") != std::string::npos;
  });
  ASSERT_EQ(searching["status"], "running") << searching;
  (void)call_optimize_tool(tools, "cancel_job", job);
  const json ended = wait_for_job(tools, job, [](const json& s) { return s["status"] != "running"; });
  ASSERT_EQ(ended["status"], "done") << ended;
  const json r = call_optimize_tool(tools, "job_result", job);
  ASSERT_FALSE(r["isError"].get<bool>()) << r;
  const json& o = r["structuredContent"]["optimizer"];
  EXPECT_EQ(o["cut_short"], true) << o;
  EXPECT_GT(o["spent"].get<int>(), 0) << o;
  EXPECT_LT(o["spent"].get<int>(), 1000000) << o;
  EXPECT_LE(r["structuredContent"]["total_latency"].get<std::int64_t>(), o["automatic_latency"].get<std::int64_t>()) << o;
  EXPECT_TRUE(fs::exists(dir / "long" / "best_mapping.yaml"));
}
