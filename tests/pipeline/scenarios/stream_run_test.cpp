// `stream run` as a user runs it: the bundled defaults (2-conv ONNX on tpu_like_quad_core), the
// files it writes, byte-identical results for identical inputs (every file but timings.*), and
// timings.* holding the wall-clock figures the other files leave out.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "stream_cli.hpp"

namespace fs = std::filesystem;

namespace {

using stream::test::read;

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

namespace {

// Every regular file under `dir`, by path relative to it.
std::map<std::string, std::string> files_under(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).generic_string()] = read(e.path());
  return files;
}

bool is_timings(const std::string& rel) { return rel == "timings.yaml" || rel == "timings.json"; }

// The first line where two texts differ, for a failure message that fits on a screen.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la)), gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "no line differs (line endings?)";
    if (!ga || !gb || la != lb)
      return "line " + std::to_string(line) + ":\n  run 1: " + (ga ? la : "<end>") + "\n  run 2: " + (gb ? lb : "<end>");
  }
}

// Runs `stream run ARGS` into two directories and compares every file byte for byte, timings.*
// aside. Each run must have written at least summary.*, timings.* and the six files of each of
// its `groups` groups (a report added later is compared too).
void expect_identical_reruns(const std::string& name, const std::string& args, int groups) {
  const auto a = scratch(name + "_a"), b = scratch(name + "_b");
  ASSERT_EQ(stream_run(args, a), 0) << read(a.string() + ".stderr");
  ASSERT_EQ(stream_run(args, b), 0) << read(b.string() + ".stderr");
  const auto fa = files_under(a / "exp"), fb = files_under(b / "exp");
  std::vector<std::string> expected = {"summary.yaml", "summary.json", "timings.yaml", "timings.json"};
  for (int g = 0; g < groups; ++g)
    for (const char* f : {"mapping.yaml", "core_cost_lut.yaml", "slot_latency_breakdown.yaml", "optimization_metrics.yaml",
                          "steady_state_trace.json", "schedule.svg"})
      expected.push_back("group_" + std::to_string(g) + "/" + f);
  for (const auto& rel : expected) EXPECT_TRUE(fa.count(rel)) << "no " << rel;
  const std::string extra_group = "group_" + std::to_string(groups) + "/";
  for (const auto& [rel, text] : fa) EXPECT_NE(rel.rfind(extra_group, 0), 0u) << "more than " << groups << " groups: " << rel;
  for (const auto& [rel, text] : fb) EXPECT_TRUE(fa.count(rel)) << "only the second run wrote " << rel;
  for (const auto& [rel, text] : fa) {
    auto other = fb.find(rel);
    if (other == fb.end()) {
      ADD_FAILURE() << "only the first run wrote " << rel;
      continue;
    }
    if (is_timings(rel)) continue;
    EXPECT_TRUE(text == other->second) << rel << " differs at " << first_difference(text, other->second);
    // Clock readings belong in timings.* only (a time that happened to repeat would pass above).
    EXPECT_EQ(text.find("time_s"), std::string::npos) << rel;
  }
}

}  // namespace

TEST(StreamRun, SameInputsTwiceGiveIdenticalFiles) { expect_identical_reruns("det_default", "", 1); }

TEST(StreamRun, SameInputsTwiceGiveIdenticalFilesPerLayerGroups) {
  expect_identical_reruns("det_per_layer", "--fusion-cut-points per-layer", 2);
}

// SwiGLU (seq 1, embedding 16, hidden 32) on simba_small, one group per layer: five groups, with
// a gated elementwise layer and the sibling Gemms.
TEST(StreamRun, SameInputsTwiceGiveIdenticalFilesSwiGlu) {
  const std::string inputs = STREAM_INPUTS_DIR;
  expect_identical_reruns("det_swiglu",
                          "--workload " + inputs + "/workload/swiglu_1_16_32.onnx --hardware " + inputs +
                              "/hardware/simba_small.yaml --fusion-cut-points per-layer",
                          5);
}

TEST(StreamRun, TimingsFileHasEveryGroupsClockFigures) {
  const auto out = scratch("timings");
  ASSERT_EQ(stream_run("--fusion-cut-points per-layer", out), 0) << read(out.string() + ".stderr");
  const auto dir = out / "exp";
  ASSERT_TRUE(fs::exists(dir / "timings.yaml"));
  ASSERT_TRUE(fs::exists(dir / "timings.json"));
  const YAML::Node t = YAML::LoadFile((dir / "timings.yaml").string());
  const auto tj = nlohmann::json::parse(read(dir / "timings.json"));
  const YAML::Node summary = YAML::LoadFile((dir / "summary.yaml").string());
  const auto summary_json = nlohmann::json::parse(read(dir / "summary.json"));
  // The summaries point at the timings instead of carrying them.
  EXPECT_EQ(summary["timings"].as<std::string>(), "timings.yaml");
  EXPECT_EQ(summary_json["timings"].get<std::string>(), "timings.json");

  const double total = t["total_wall_time_s"].as<double>();
  EXPECT_GT(total, 0.0);
  EXPECT_DOUBLE_EQ(tj["total_wall_time_s"].get<double>(), total);
  // One entry per group of the summary, under the same key, and no other.
  ASSERT_TRUE(summary["groups"].IsMap());
  ASSERT_EQ(summary["groups"].size(), 2u);  // per-layer cuts the 2-conv in two
  ASSERT_EQ(t["groups"].size(), summary["groups"].size());
  ASSERT_EQ(tj["groups"].size(), summary["groups"].size());
  double sum_walls = 0;
  for (const auto& entry : summary["groups"]) {
    const auto key = entry.first.as<std::string>();
    const YAML::Node g = t["groups"][key];
    ASSERT_TRUE(g.IsMap()) << key;
    ASSERT_TRUE(tj["groups"].contains(key)) << key;
    const auto& gj = tj["groups"][key];
    const double wall = g["wall_time_s"].as<double>(), costs = g["cost_table_time_s"].as<double>(),
                 solve = g["solve_time_s"].as<double>();
    for (double x : {wall, costs, solve}) EXPECT_GE(x, 0.0) << key;
    EXPECT_GT(wall, 0.0) << key;
    // Both parts happen inside the group's span (1 us rounding per figure).
    EXPECT_LE(costs, wall + 2e-6) << key;
    EXPECT_LE(solve, wall + 2e-6) << key;
    EXPECT_LE(costs + solve, wall + 3e-6) << key;
    EXPECT_DOUBLE_EQ(gj["wall_time_s"].get<double>(), wall) << key;
    EXPECT_DOUBLE_EQ(gj["cost_table_time_s"].get<double>(), costs) << key;
    EXPECT_DOUBLE_EQ(gj["solve_time_s"].get<double>(), solve) << key;
    sum_walls += wall;
    // One solve time per objective level of optimization_metrics.yaml, in its order, adding up
    // to the group's MILP time.
    const YAML::Node metrics = YAML::LoadFile((dir / key / "optimization_metrics.yaml").string());
    EXPECT_EQ(metrics["timings"].as<std::string>(), "../timings.yaml") << key;
    EXPECT_TRUE(fs::exists(dir / key / metrics["timings"].as<std::string>())) << key;
    const YAML::Node levels = g["objectives"];
    ASSERT_TRUE(levels.IsSequence()) << key;
    ASSERT_EQ(levels.size(), metrics["objectives"].size()) << key;
    ASSERT_GT(levels.size(), 0u) << key;
    ASSERT_EQ(gj["objectives"].size(), levels.size()) << key;
    double sum_levels = 0;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      EXPECT_EQ(levels[i]["level"].as<std::string>(), metrics["objectives"][i]["level"].as<std::string>()) << key;
      EXPECT_EQ(gj["objectives"][i]["level"].get<std::string>(), levels[i]["level"].as<std::string>()) << key;
      const double s = levels[i]["solve_time_s"].as<double>();
      EXPECT_GE(s, 0.0) << key << " level " << i;
      EXPECT_DOUBLE_EQ(gj["objectives"][i]["solve_time_s"].get<double>(), s) << key;
      sum_levels += s;
    }
    EXPECT_NEAR(sum_levels, solve, 1e-6 * static_cast<double>(levels.size() + 1)) << key;
  }
  // The groups run one after the other inside the run.
  EXPECT_LE(sum_walls, total + 1e-6 * 3);
  // The table on stdout still shows the wall times.
  const auto stdout_text = read(out.string() + ".stdout");
  EXPECT_NE(stdout_text.find("wall (s)"), std::string::npos) << stdout_text;
  EXPECT_NE(stdout_text.find("wall time:"), std::string::npos) << stdout_text;
}

// --inline-timings puts the clock figures of timings.* into summary.* and optimization_metrics.yaml
// as well (the issue lists wall and solve times among their fields); they are the same readings.
TEST(StreamRun, InlineTimingsRepeatTheTimingsFileInSummaryAndMetrics) {
  const auto out = scratch("inline_timings");
  ASSERT_EQ(stream_run("--fusion-cut-points per-layer --inline-timings", out), 0) << read(out.string() + ".stderr");
  const auto dir = out / "exp";
  const YAML::Node t = YAML::LoadFile((dir / "timings.yaml").string());
  const YAML::Node summary = YAML::LoadFile((dir / "summary.yaml").string());
  const auto summary_json = nlohmann::json::parse(read(dir / "summary.json"));
  EXPECT_DOUBLE_EQ(summary["total_wall_time_s"].as<double>(), t["total_wall_time_s"].as<double>());
  EXPECT_DOUBLE_EQ(summary_json["total_wall_time_s"].get<double>(), t["total_wall_time_s"].as<double>());
  ASSERT_EQ(summary["groups"].size(), 2u);
  for (const auto& entry : summary["groups"]) {
    const auto key = entry.first.as<std::string>();
    const YAML::Node g = t["groups"][key];
    EXPECT_DOUBLE_EQ(entry.second["wall_time_s"].as<double>(), g["wall_time_s"].as<double>()) << key;
    EXPECT_DOUBLE_EQ(summary_json["groups"][key]["wall_time_s"].get<double>(), g["wall_time_s"].as<double>()) << key;
    const YAML::Node metrics = YAML::LoadFile((dir / key / "optimization_metrics.yaml").string());
    EXPECT_DOUBLE_EQ(metrics["solve_time_s"].as<double>(), g["solve_time_s"].as<double>()) << key;
    ASSERT_EQ(metrics["objectives"].size(), g["objectives"].size()) << key;
    for (std::size_t i = 0; i < g["objectives"].size(); ++i)
      EXPECT_DOUBLE_EQ(metrics["objectives"][i]["solve_time_s"].as<double>(),
                       g["objectives"][i]["solve_time_s"].as<double>())
          << key << " level " << i;
  }
  // Without the switch the same files carry no clock figure (the determinism tests compare them).
  const auto plain = scratch("plain_timings");
  ASSERT_EQ(stream_run("--fusion-cut-points per-layer", plain), 0);
  EXPECT_EQ(read(plain / "exp" / "summary.yaml").find("time_s"), std::string::npos);
  EXPECT_EQ(read(plain / "exp" / "group_0" / "optimization_metrics.yaml").find("time_s"), std::string::npos);
}

TEST(StreamRun, SummaryOnlyWritesTheSameSummaryAndNoGroupFiles) {
  // A sweep needs summary.* and timings.* only: the same summary bytes as a full run, no group_<i>/.
  const auto full = scratch("summary_full"), only = scratch("summary_only");
  ASSERT_EQ(stream_run("", full), 0) << read(full.string() + ".stderr");
  ASSERT_EQ(stream_run("--summary-only", only), 0) << read(only.string() + ".stderr");
  for (const char* f : {"summary.yaml", "summary.json"}) EXPECT_EQ(read(only / "exp" / f), read(full / "exp" / f)) << f;
  EXPECT_TRUE(fs::exists(only / "exp" / "timings.yaml"));
  EXPECT_TRUE(fs::exists(only / "exp" / "timings.json"));
  EXPECT_FALSE(fs::exists(only / "exp" / "group_0"));
  EXPECT_TRUE(fs::exists(full / "exp" / "group_0" / "mapping.yaml"));
}

TEST(StreamRun, EveryYamlResultFileParsesBack) {
  // The direct writer must keep every file valid YAML: each parses with yaml-cpp into a map.
  const auto out = scratch("yaml_parses");
  ASSERT_EQ(stream_run("", out), 0) << read(out.string() + ".stderr");
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(out / "exp")) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    const YAML::Node doc = YAML::LoadFile(e.path().string());
    EXPECT_TRUE(doc.IsMap()) << e.path();
  }
  EXPECT_EQ(files, 7);  // summary, timings; group_0: mapping, core_cost_lut, slot_latency_breakdown, optimization_metrics, memory_accesses
}
