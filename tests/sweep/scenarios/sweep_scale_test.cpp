// Sweeps far bigger than anyone evaluates whole, within the accepted limit (10^8 points without a
// sample): counted before any point is made, each point made from its number. Building every
// point of 10^8 (a Point of 32 bytes plus its value vector) needs some 10 GB; here a 1.5 GB
// address-space limit stands for "bounded memory", so that the test checks the outcome, not a time.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using stream::test::run_command;

namespace {

const fs::path kInputs(STREAM_INPUTS_DIR);
const std::string kLimit = "ulimit -v 1500000";  // KiB: 1.5 GB of address space

// The quad core and `axes` override axes, each giving bandwidth 1..10 to one of its links:
// 10^axes points, point n's link k getting the k-th decimal digit of n (from the left) plus one.
fs::path link_sweep(const std::string& name, int axes) {
  const auto dir = stream::test::fresh_scratch_dir("sweep_scale", name);
  fs::copy_file(kInputs / "hardware" / "tpu_like_quad_core.yaml", dir / "tpu_like_quad_core.yaml");
  fs::copy(kInputs / "hardware" / "cores", dir / "cores");
  std::ofstream out(dir / "sweep.yaml");
  out << "axes:\n  hardware: [tpu_like_quad_core.yaml]\n";
  for (int k = 0; k < axes; ++k) out << "  hardware/core_connectivity/" << k << "/bandwidth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n";
  return dir;
}

std::string stream_exe() { return "'" + std::string(STREAM_BUILD_DIR) + "/bin/stream'"; }

}  // namespace

// Shard 3 of 10^7 of a 10^8-point sweep: its 10 points are 3, 10^7 + 3, ..., 9 * 10^7 + 3, each
// made from its number; it once built all 10^8 first (std::bad_alloc under this limit).
TEST(SweepScale, AShardOfA1e8PointSweepRunsInBoundedMemory) {
  const auto dir = link_sweep("shard_1e8", 8);
  const auto r = run_command("(" + kLimit + "; exec " + stream_exe() + " sweep " + (dir / "sweep.yaml").string() +
                             " --shard 3/10000000 --jobs 1 --out " + (dir / "out").string() + ") 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rows = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rows.size(), 10u);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k]["point"], k * 10'000'000 + 3);
    // Digits of k * 10^7 + 3 as eight: k, 0, 0, 0, 0, 0, 0, 3; each value is its digit plus one.
    // The values are numbers in the file, and in the rows.
    EXPECT_EQ(rows[k]["hardware/core_connectivity/0/bandwidth"], k + 1) << rows[k];
    EXPECT_EQ(rows[k]["hardware/core_connectivity/1/bandwidth"], 1) << rows[k];
    EXPECT_EQ(rows[k]["hardware/core_connectivity/7/bandwidth"], 4) << rows[k];
    EXPECT_EQ(rows[k]["status"], "ok") << rows[k];
  }
}

// Over the limit without a sample: refused at once, naming the count, before any output.
TEST(SweepScale, A1e9PointSweepIsRefusedNamingItsCount) {
  const auto dir = link_sweep("refused_1e9", 9);
  const auto r = run_command("(" + kLimit + "; exec " + stream_exe() + " sweep " + (dir / "sweep.yaml").string() +
                             " --out " + (dir / "out").string() + ") 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("the sweep has 1000000000 points, more than 10^8"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// The MCP sweep tool runs at most 64 points: a 1 KB request for 10^8 is an error reply naming the
// count and the cap, and no point is built (it once built them all first: std::bad_alloc).
TEST(SweepScale, TheMcpSweepToolRefusesAHugeSweepByItsCount) {
  const auto dir = link_sweep("mcp_1e8", 0);
  nlohmann::json axes = {{"hardware", {(dir / "tpu_like_quad_core.yaml").string()}}};
  for (int k = 0; k < 8; ++k) axes["hardware/core_connectivity/" + std::to_string(k) + "/bandwidth"] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const nlohmann::json request = {{"jsonrpc", "2.0"},
                                  {"id", 7},
                                  {"method", "tools/call"},
                                  {"params", {{"name", "sweep"}, {"arguments", {{"spec", {{"axes", axes}}}}}}}};
  std::ofstream(dir / "request.jsonl") << request.dump() << "\n";
  const auto r = run_command("(" + kLimit + "; exec " + stream_exe() + " mcp --out " + (dir / "mcp").string() + " < " +
                             (dir / "request.jsonl").string() + ") 2>/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto reply = nlohmann::json::parse(r.out);
  EXPECT_EQ(reply["id"], 7);
  ASSERT_TRUE(reply["result"]["isError"].get<bool>()) << reply;
  const auto text = reply["result"]["content"][0]["text"].get<std::string>();
  EXPECT_NE(text.find("the sweep has 100000000 points; this tool runs at most 64"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(dir / "mcp" / "sweeps"));
}
