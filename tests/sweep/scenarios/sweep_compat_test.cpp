// The sweep's `compat` axis (docs/sweep.md): each point's latency is the one `stream run --compat
// <value>` gives, the reference's own under stream-1.13 (attention_head on the TPU-like quad core:
// 32,815 by default, the reference's 15,424 + 29,480 = 44,904 under stream-1.13; tests/data/reference
// /goldens.md), and a value that is no mode fails its point.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using stream::test::run_stream;

TEST(SweepCompat, EachPointFollowsItsMode) {
  const auto dir = stream::test::fresh_scratch_dir("sweep", "compat");
  fs::copy_file(fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs" / "workload" / "attention_head.onnx",
                dir / "attention.onnx");
  std::ofstream(dir / "sweep.yaml") << "axes:\n  workload: [attention.onnx]\n  compat: [none, stream-1.13, stream-1.12]\n";
  const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() + " --jobs 1");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rows = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["status"], "ok") << rows[0];
  EXPECT_EQ(rows[0]["compat"], "none");
  EXPECT_EQ(rows[0]["latency"], 32815);
  EXPECT_EQ(rows[1]["status"], "ok") << rows[1];
  EXPECT_EQ(rows[1]["latency"], 44904);
  EXPECT_NE(rows[1]["id"], rows[0]["id"]);
  EXPECT_EQ(rows[2]["status"], "failed");
  EXPECT_NE(rows[2]["reason"].get<std::string>().find("unknown compatibility mode 'stream-1.12'"), std::string::npos)
      << rows[2];
}
