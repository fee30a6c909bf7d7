// `stream run` as a user runs it: the bundled defaults (2-conv ONNX on tpu_like_quad_core), the
// files it writes, and byte-identical results for identical inputs (timing fields aside).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Wall and solve times are the only fields allowed to differ between runs.
std::string without_times(const std::string& text) {
  static const std::regex times(R"(("?[a-z_]*time_s"?\s*:\s*)[-0-9.e+]+)");
  return std::regex_replace(text, times, "$1T");
}

int stream_run(const std::string& args, const fs::path& out) {
  const std::string cmd = std::string(STREAM_BUILD_DIR) + "/bin/stream run " + args + " --out " + out.string() +
                          " --experiment-id exp > " + (out.string() + ".stdout") + " 2> " + (out.string() + ".stderr");
  fs::create_directories(out.parent_path());
  return std::system(cmd.c_str());
}

fs::path scratch(const std::string& name) {
  const auto p = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "stream_run" / name;
  fs::remove_all(p);
  return p;
}

}  // namespace

TEST(StreamRun, DefaultsGiveTheReadmeLatencyAndAllFiles) {
  const auto out = scratch("defaults");
  ASSERT_EQ(stream_run("", out), 0) << read(out.string() + ".stderr");
  const auto summary = read(out / "exp" / "summary.yaml");
  EXPECT_NE(summary.find("total_latency: 14344\n"), std::string::npos) << summary;
  EXPECT_NE(read(out.string() + ".stdout").find("14344"), std::string::npos);
  for (const char* f : {"mapping.yaml", "core_cost_lut.yaml", "slot_latency_breakdown.yaml", "optimization_metrics.yaml",
                        "steady_state_trace.json", "schedule.svg", "memory_accesses.yaml"})
    EXPECT_TRUE(fs::exists(out / "exp" / "group_0" / f)) << f;
  EXPECT_TRUE(fs::exists(out / "exp" / "summary.json"));
  // The written mapping is a valid mapping file: running with it reproduces the latency.
  const auto again = scratch("from_written_mapping");
  ASSERT_EQ(stream_run("--mapping " + (out / "exp" / "group_0" / "mapping.yaml").string(), again), 0)
      << read(again.string() + ".stderr");
  EXPECT_NE(read(again / "exp" / "summary.yaml").find("total_latency: 14344\n"), std::string::npos);
  // The cost table lists the spec's per-core figures.
  const auto lut = read(out / "exp" / "group_0" / "core_cost_lut.yaml");
  EXPECT_NE(lut.find("latency_total: 2376"), std::string::npos);
  EXPECT_NE(lut.find("latency_total: 4656"), std::string::npos);
}

TEST(StreamRun, EyerissSingleCoreIs114999) {
  const auto out = scratch("eyeriss");
  ASSERT_EQ(stream_run("--hardware hardware/eyeriss_like_single_core.yaml", out), 0) << read(out.string() + ".stderr");
  EXPECT_NE(read(out / "exp" / "summary.yaml").find("total_latency: 114999\n"), std::string::npos);
}

TEST(StreamRun, SameInputsTwiceGiveIdenticalFiles) {
  const auto a = scratch("det_a"), b = scratch("det_b");
  ASSERT_EQ(stream_run("--fusion-cut-points per-layer", a), 0);
  ASSERT_EQ(stream_run("--fusion-cut-points per-layer", b), 0);
  int compared = 0;
  for (const auto& e : fs::recursive_directory_iterator(a / "exp")) {
    if (!e.is_regular_file()) continue;
    const auto rel = fs::relative(e.path(), a / "exp");
    ASSERT_TRUE(fs::exists(b / "exp" / rel)) << rel;
    EXPECT_EQ(without_times(read(e.path())), without_times(read(b / "exp" / rel))) << rel;
    ++compared;
  }
  EXPECT_EQ(compared, 2 + 2 * 7);  // summary.yaml/json + seven files per group, two groups
}
