// The sweep's `cost_profile` axis (docs/sweep.md): each point's figures are those of `stream run
// --cost-profile <value>` on the same inputs, and a value that is no profile fails its point.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using stream::test::run_stream;

namespace {

// `stream run`'s total latency, from its stdout table; -1 when it is missing.
std::int64_t run_latency(const std::string& args) {
  const auto r = run_stream("run " + args);
  const auto at = r.out.find("Total latency:");
  if (r.code != 0 || at == std::string::npos) return -1;
  return std::stoll(r.out.substr(at + 14));
}

}  // namespace

TEST(SweepCostProfile, EachPointIsWhatStreamRunGivesWithItsProfile) {
  const auto dir = stream::test::fresh_scratch_dir("sweep", "cost_profile");
  // The residual block's Relu and Add are estimates on the TPU-like quad core; `full` raises them.
  fs::copy_file(fs::path(STREAM_INPUTS_DIR) / "workload" / "residual_block.onnx", dir / "residual.onnx");
  std::ofstream(dir / "sweep.yaml") << "axes:\n  workload: [residual.onnx]\n  cost_profile: [reference, full, fast]\n";
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() + " --jobs 1");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rows = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rows.size(), 3u);
  const std::string run = "--workload " + (dir / "residual.onnx").string() + " --out " + (dir / "runs").string();
  const auto reference = run_latency(run), full = run_latency(run + " --cost-profile full");
  ASSERT_GT(reference, 0);
  EXPECT_GT(full, reference);  // else this test would not tell the profiles apart
  EXPECT_EQ(rows[0]["status"], "ok") << rows[0];
  EXPECT_EQ(rows[0]["cost_profile"], "reference");
  EXPECT_EQ(rows[0]["latency"], reference);
  EXPECT_EQ(rows[1]["status"], "ok") << rows[1];
  EXPECT_EQ(rows[1]["latency"], full);
  EXPECT_EQ(rows[1]["energy_pj"], rows[0]["energy_pj"]);  // the profile changes latencies only
  EXPECT_NE(rows[1]["id"], rows[0]["id"]);
  EXPECT_EQ(rows[2]["status"], "failed");
  EXPECT_NE(rows[2]["reason"].get<std::string>().find("unknown cost profile 'fast' (expected reference or full)"),
            std::string::npos)
      << rows[2];
}
