// `stream sweep merge` refuses what would be a lying result: a shard killed midway (SIGKILL while
// it runs), shards of two different sweeps (another file, or an input file edited between shards),
// a shard given twice or not at all. Each is exit 2 naming the shard directory and what is missing.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using stream::test::run_stream;

namespace {

const fs::path kInputs(STREAM_INPUTS_DIR);

// 600 points on the quad core: three of its links take 1..10, 1..10 and 1..6 as bandwidth.
const std::string kLinks =
    "axes:\n  hardware: [tpu_like_quad_core.yaml]\n"
    "  hardware/core_connectivity/0/bandwidth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
    "  hardware/core_connectivity/1/bandwidth: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
    "  hardware/core_connectivity/2/bandwidth: [1, 2, 3, 4, 5, 6]\n";

fs::path fixture(const std::string& name, const std::string& sweep_text) {
  const auto dir = stream::test::fresh_scratch_dir("sweep_merge", name);
  for (const char* h : {"tpu_like_quad_core.yaml", "simba_small.yaml"}) fs::copy_file(kInputs / "hardware" / h, dir / h);
  fs::copy(kInputs / "hardware" / "cores", dir / "cores");
  std::ofstream(dir / "sweep.yaml") << sweep_text;
  return dir;
}

std::size_t lines_in(const fs::path& file) {
  std::ifstream in(file);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
  return n;
}

std::string shard(const fs::path& dir, const std::string& sweep_file, int i, int n) {
  return "sweep " + (dir / sweep_file).string() + " --jobs 1 --shard " + std::to_string(i) + "/" + std::to_string(n) +
         " --out " + (dir / ("s" + std::to_string(i))).string();
}

}  // namespace

TEST(SweepMerge, AShardKilledMidwayIsRefusedThenMergesOnceResumed) {
  const auto dir = fixture("killed", kLinks);
  ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", 1, 2)).code, 0);
  // Shard 0 in the background, killed with SIGKILL once it has written a few rows.
  const auto started = stream::test::run_command("'" + std::string(STREAM_BUILD_DIR) + "/bin/stream' " +
                                                 shard(dir, "sweep.yaml", 0, 2) + " > " + (dir / "s0.log").string() +
                                                 " 2>&1 & echo $!");
  const pid_t pid = std::stoi(started.out);
  const auto rows = dir / "s0" / "results.jsonl";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (lines_in(rows) < 5 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const std::size_t written = lines_in(rows);
  ASSERT_GE(written, 5u);
  ASSERT_LT(written, 300u) << "the shard finished before it was killed";

  const std::string merge = "sweep merge " + (dir / "s0").string() + " " + (dir / "s1").string() + " --out " +
                            (dir / "merged").string();
  const auto refused = run_stream(merge);
  EXPECT_EQ(refused.code, 2) << refused.out;
  // Shard 0 of 2 has the even points 0, 2, ..., 598; the rows written are its first ones.
  const std::string missing = std::to_string(300 - written) + " of 300 points have no row (points " +
                              std::to_string(2 * written) + ", " + std::to_string(2 * written + 2);
  EXPECT_NE(refused.out.find("error: " + (dir / "s0").string() + ": shard 0/2 is incomplete: " + missing), std::string::npos)
      << refused.out;
  EXPECT_FALSE(fs::exists(dir / "merged" / "results.csv"));

  ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", 0, 2)).code, 0);  // resumes
  const auto merged = run_stream(merge);
  ASSERT_EQ(merged.code, 0) << merged.out;
  const auto all = stream::test::sweep_rows(dir / "merged" / "results.jsonl");
  ASSERT_EQ(all.size(), 600u);
  for (std::size_t k = 0; k < all.size(); ++k) EXPECT_EQ(all[k]["point"], k);
}

TEST(SweepMerge, ShardsOfDifferentSweepsAreRefused) {
  const auto dir = fixture("different", "axes:\n  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n");
  std::ofstream(dir / "other.yaml") << "axes:\n  hardware: [simba_small.yaml, tpu_like_quad_core.yaml]\n";
  ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", 0, 2)).code, 0);
  ASSERT_EQ(run_stream(shard(dir, "other.yaml", 1, 2)).code, 0);
  const std::string merge = "sweep merge " + (dir / "s0").string() + " " + (dir / "s1").string() + " --out " +
                            (dir / "merged").string();
  auto r = run_stream(merge);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: " + (dir / "s1").string() + ": different sweep: these are results of sweep "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("other.yaml"), std::string::npos) << r.out;

  // The same sweep file, but a hardware file edited between the shards: another sweep too.
  ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", 1, 2)).code, 0);
  ASSERT_EQ(run_stream(merge).code, 0);
  std::ofstream(dir / "simba_small.yaml", std::ios::app) << "# edited\n";
  ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", 1, 2)).code, 0);
  r = run_stream(merge);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("different sweep"), std::string::npos) << r.out;
}

TEST(SweepMerge, EveryShardOnceAndNoneMissing) {
  const auto dir = fixture("shards", "axes:\n  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n  cast: [none, bf16]\n");
  for (int i = 0; i < 3; ++i) ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", i, 3)).code, 0);
  const auto d = [&](int i) { return (dir / ("s" + std::to_string(i))).string(); };
  const auto s = [&](int i) { return d(i) + " "; };
  const std::string out = "--out " + (dir / "merged").string();
  auto r = run_stream("sweep merge " + s(0) + s(2) + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("1 of 3 shards not given (shards 1)"), std::string::npos) << r.out;
  r = run_stream("sweep merge " + s(0) + s(1) + s(2) + s(1) + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: " + d(1) + ": shard 1/3 is given twice (also " + d(1) + ")"), std::string::npos)
      << r.out;
  ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", 2, 3) + " --strict").code, 0);  // a row of another kind
  r = run_stream("sweep merge " + s(0) + s(1) + s(2) + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: " + d(2) + ": run with --strict, but " + d(0) + " without"), std::string::npos) << r.out;
  fs::remove(dir / "s2" / "sweep.json");  // as a directory an older stream wrote
  r = run_stream("sweep merge " + s(0) + s(1) + s(2) + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: " + d(2) + ": no readable sweep.json"), std::string::npos) << r.out;
  ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", 2, 3)).code, 0);  // records it again
  fs::remove(dir / "s2" / "results.jsonl");  // as a shard killed before its first row leaves it
  r = run_stream("sweep merge " + s(0) + s(1) + s(2) + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: " + d(2) + ": shard 2/3 is incomplete: 1 of 1 points have no row (points 2)"), std::string::npos)
      << r.out;
  ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", 2, 3)).code, 0);
  r = run_stream("sweep merge " + s(0) + s(1) + s(2) + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(stream::test::sweep_rows(dir / "merged" / "results.jsonl").size(), 4u);
}

// A value repeated in an axis gives two points of one identity: each keeps its own row and number,
// in the sweep and in the merge of its shards (the merge once kept one row per identity).
TEST(SweepMerge, ARepeatedPointKeepsARowOfItsOwn) {
  const auto dir = fixture("repeated", "axes:\n  hardware: [tpu_like_quad_core.yaml, tpu_like_quad_core.yaml, simba_small.yaml]\n");
  ASSERT_EQ(run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "all").string()).code, 0);
  for (int i = 0; i < 2; ++i) ASSERT_EQ(run_stream(shard(dir, "sweep.yaml", i, 2)).code, 0);
  const auto m = run_stream("sweep merge " + (dir / "s0").string() + " " + (dir / "s1").string() + " --out " +
                            (dir / "merged").string());
  ASSERT_EQ(m.code, 0) << m.out;
  const auto all = stream::test::sweep_rows(dir / "all" / "results.jsonl");
  ASSERT_EQ(all.size(), 3u);
  for (std::size_t k = 0; k < all.size(); ++k) EXPECT_EQ(all[k]["point"], k);
  EXPECT_EQ(all[0]["id"], all[1]["id"]);
  EXPECT_EQ(all[0]["latency"], 14344);
  EXPECT_EQ(all[1]["latency"], 14344);
  EXPECT_EQ(stream::test::sweep_rows(dir / "merged" / "results.jsonl"), all);
}
