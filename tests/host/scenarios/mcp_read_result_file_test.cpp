// The MCP tool read_result_file (host/mcp_tools.cpp) against hostile paths: a path longer than any
// file system takes is refused at once as invalid params (before: a 48 MB path took 21 s and 4 GB
// and answered "internal error"), a symlink inside the output directory is not followed out of
// it, and one swapped in while the server reads never yields the outside file (before: the check
// and the open were two lookups by name; 3 of 3,000 reads followed the swap).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "host_context.hpp"
#include "mcp_server.hpp"
#include "mcp_tools.hpp"
#include "stream_cli.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void write_file(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

// The server's tools over `out`; `call` runs read_result_file as tools/call would.
struct ResultReader {
  explicit ResultReader(const fs::path& out) : tools(stream::host::stream_mcp_tools(ctx, out)) {}
  // The tool's answer through the server: the JSON-RPC reply to one tools/call.
  json reply(const std::string& path) const {
    const json request = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"},
                          {"params", {{"name", "read_result_file"}, {"arguments", {{"path", path}}}}}};
    std::stringstream in(request.dump() + "\n"), out;
    stream::host::serve_mcp(in, out, tools, "test");
    return json::parse(out.str());
  }
  stream::host::HostContext ctx;
  std::vector<stream::host::McpTool> tools;
};

std::string text_of(const json& reply) {
  const auto& r = reply.at("result");
  return r.at("isError").get<bool>() ? "" : r.at("structuredContent").at("text").get<std::string>();
}

}  // namespace

TEST(McpReadResultFile, ALongPathIsInvalidParamsAtOnce) {
  const auto dir = stream::test::fresh_scratch_dir("host", "mcp_read_long");
  ResultReader reader(dir);
  std::string path;
  while (path.size() < (std::size_t{1} << 20)) path += "a/";  // 1 MiB of components
  const auto t0 = std::chrono::steady_clock::now();
  const json r = reader.reply(path);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  ASSERT_TRUE(r.contains("error")) << r.dump().substr(0, 300);
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_EQ(r["id"], 7);
  EXPECT_NE(r["error"]["message"].get<std::string>().find("at most 4096"), std::string::npos) << r;
}

TEST(McpReadResultFile, ASymlinkOutOfTheOutputDirectoryIsRefused) {
  const auto dir = stream::test::fresh_scratch_dir("host", "mcp_read_symlink");
  fs::create_directories(dir / "out" / "run");
  write_file(dir / "out" / "run" / "summary.yaml", "total_latency: 1\n");
  write_file(dir / "secret.txt", "outside\n");
  fs::create_symlink(dir / "secret.txt", dir / "out" / "run" / "leak.yaml");
  fs::create_symlink(dir, dir / "out" / "up");
  ResultReader reader(dir / "out");
  EXPECT_EQ(text_of(reader.reply("run/summary.yaml")), "total_latency: 1\n");
  for (const std::string path : {"run/leak.yaml", "up/secret.txt", "../secret.txt"}) {
    const json r = reader.reply(path);
    EXPECT_TRUE(r["result"]["isError"].get<bool>()) << path << ": " << r;
    EXPECT_EQ(r.dump().find("outside"), std::string::npos) << path << ": " << r;
  }
}

TEST(McpReadResultFile, ASymlinkSwappedInWhileReadingNeverLeadsOut) {
  const auto dir = stream::test::fresh_scratch_dir("host", "mcp_read_race");
  const auto out = dir / "out";
  fs::create_directories(out);
  write_file(dir / "secret.txt", "outside\n");
  write_file(out / "inside.txt", "inside\n");
  write_file(out / "target", "inside\n");
  ResultReader reader(out);
  // The swapper replaces out/target, atomically by rename, by turns with a file inside and a
  // symlink to the secret; the reader reads out/target meanwhile: 400 reads, more (up to 5,000)
  // until one has met the file between swaps, which a loaded machine may delay.
  std::atomic<bool> stop{false};
  std::atomic<int> swaps{0};
  std::thread swapper([&] {
    for (int i = 0; !stop; ++i, ++swaps) {
      std::error_code ec;
      if (i % 2 == 0) {
        fs::remove(out / "next", ec);
        fs::create_symlink(dir / "secret.txt", out / "next", ec);
      } else {
        write_file(out / "next", "inside\n");
      }
      fs::rename(out / "next", out / "target", ec);
    }
  });
  while (swaps < 2) std::this_thread::yield();
  int inside = 0, outside = 0, reads = 0;
  for (; reads < 5000 && (reads < 400 || inside == 0); ++reads) {
    const std::string text = text_of(reader.reply("target"));
    inside += text == "inside\n";
    outside += text.find("outside") != std::string::npos;
  }
  stop = true;
  swapper.join();
  EXPECT_EQ(outside, 0);
  EXPECT_GT(inside, 0);  // the reads did reach the file between swaps
}
