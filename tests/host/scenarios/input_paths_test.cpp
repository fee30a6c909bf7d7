// One rule for relative input paths, for every command (host/inputs.hpp): from a working directory
// that holds none of them, `hardware/...`, `workload/...` and `inputs/...` name the bundled inputs,
// and a file found nowhere is exit 2 with an error that lists every place tried.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"

namespace {

namespace fs = std::filesystem;
using stream::test::CliResult;

const std::string kTwoConv = "workload/2conv_1_8_32_32_16_32_3.onnx";
const std::string kQuad = "hardware/tpu_like_quad_core.yaml";

// An empty working directory of the test's own, outside the source tree.
fs::path workdir(const std::string& name) { return stream::test::fresh_scratch_dir("input_paths", name); }

// `stream <args>` run from `dir`; stderr merged into the output when `merge`, else dropped.
CliResult stream_in(const fs::path& dir, const std::string& args, bool merge = true) {
  return stream::test::run_command("cd '" + dir.string() + "' && '" + std::string(STREAM_BUILD_DIR) + "/bin/stream' " +
                                   args + (merge ? " 2>&1" : " 2>/dev/null"));
}

// The error's line names the path as given, then the working directory's candidate and the bundled
// one, in that order.
void expect_places_listed(const CliResult& r, const fs::path& dir, const std::string& given) {
  EXPECT_EQ(r.code, 2) << r.out;
  const std::string places = "no such file (tried " + (dir / given).string() + ", " +
                             (fs::path(STREAM_INPUTS_DIR) / given).lexically_normal().string() + ")";
  const auto at = r.out.find(places);
  ASSERT_NE(at, std::string::npos) << r.out;
  const auto line = r.out.rfind('\n', at) + 1;  // npos + 1 == 0 on the first line
  EXPECT_NE(r.out.substr(line, at - line).find(given + ": "), std::string::npos) << r.out;  // the line names it
}

std::size_t count_type(const nlohmann::json& doc, const std::string& type) {
  std::size_t n = 0;
  for (const auto& node : doc["nodes"]) n += node["type"] == type;
  return n;
}

}  // namespace

TEST(InputPaths, ParseFindsABundledWorkloadFromAnyDirectory) {
  const auto dir = workdir("parse");
  const auto r = stream_in(dir, "parse " + kTwoConv + " --format json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(count_type(nlohmann::json::parse(r.out), "Conv"), 2u);  // the 2-conv: two Conv nodes
  // The repository's own spelling of the same file resolves too.
  const auto again = stream_in(dir, "parse inputs/" + kTwoConv + " --format json", false);
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(count_type(nlohmann::json::parse(again.out), "Conv"), 2u);
  expect_places_listed(stream_in(dir, "parse workload/nope.onnx"), dir, "workload/nope.onnx");
}

TEST(InputPaths, ValidateFindsBundledHardwareWorkloadAndMapping) {
  const auto dir = workdir("validate");
  const auto r = stream_in(dir, "validate --hardware " + kQuad + " --workload inputs/" + kTwoConv + " --format json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["valid"].get<bool>());
  EXPECT_EQ(doc["accelerator"]["cores"].size(), 7u);  // 4 TPU-like, pooling, SIMD, off-chip
  // Every missing file is one error with its places, and the others are still checked.
  const auto bad = stream_in(dir, "validate --hardware " + kQuad + " --workload nope.onnx --mapping mapping/nope.yaml");
  expect_places_listed(bad, dir, "nope.onnx");
  expect_places_listed(bad, dir, "mapping/nope.yaml");
  EXPECT_NE(bad.out.find("2 errors"), std::string::npos) << bad.out;
  expect_places_listed(stream_in(dir, "validate --hardware nope.yaml"), dir, "nope.yaml");
}

TEST(InputPaths, RunFindsBundledInputsAndNamesWhereItLooked) {
  const auto dir = workdir("run");
  const auto r = stream_in(dir, "run --hardware inputs/" + kQuad + " --workload " + kTwoConv + " --summary-only --out out",
                           false);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("Total latency:            14344 cycles"), std::string::npos) << r.out;  // README's figure
  expect_places_listed(stream_in(dir, "run --workload nope.onnx --out out"), dir, "nope.onnx");
  expect_places_listed(stream_in(dir, "run --hardware hardware/nope.yaml --out out"), dir, "hardware/nope.yaml");
  expect_places_listed(stream_in(dir, "run --mapping nope.yaml --out out"), dir, "nope.yaml");
}

TEST(InputPaths, SweepFindsABundledSweepFile) {
  const auto dir = workdir("sweep");
  const auto r = stream_in(dir, "sweep inputs/sweeps/array_cores_2conv.yaml --out out --jobs 2", false);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("10 points: 10 ok"), std::string::npos) << r.out;  // 5 core counts x 2 array sizes
  expect_places_listed(stream_in(dir, "sweep sweeps/nope.yaml --out out"), dir, "sweeps/nope.yaml");
  expect_places_listed(stream_in(dir, "sweep submit sweeps/nope.yaml --slurm --out out --dry-run"), dir,
                       "sweeps/nope.yaml");
}

TEST(InputPaths, CoreCostAndCostFindBundledHardware) {
  const auto dir = workdir("cost");
  const auto table = stream_in(dir, "core-cost --hardware " + kQuad + " --workload " + kTwoConv + " --format json", false);
  ASSERT_EQ(table.code, 0) << table.out;
  EXPECT_FALSE(nlohmann::json::parse(table.out)["entries"].empty());
  const auto cost = stream_in(dir, "cost --hardware " + kQuad + " --format json", false);
  ASSERT_EQ(cost.code, 0) << cost.out;
  expect_places_listed(stream_in(dir, "core-cost --cases cases.json"), dir, "cases.json");
  expect_places_listed(stream_in(dir, "core-cost --hardware nope.yaml --workload " + kTwoConv), dir, "nope.yaml");
  expect_places_listed(stream_in(dir, "cost --hardware nope.yaml"), dir, "nope.yaml");
}

TEST(InputPaths, AFileInTheWorkingDirectoryComesFirst) {
  // The same relative name in the working directory wins over the bundled one: here a broken copy,
  // whose error names the local file (and not the bundled file, which is valid).
  const auto dir = workdir("local-first");
  fs::create_directories(dir / "hardware");
  {
    std::ofstream(dir / kQuad) << "name: local\n";
  }
  const auto r = stream_in(dir, "validate --hardware " + kQuad);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(kQuad + ":"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'cores'"), std::string::npos) << r.out;  // the local file lacks cores
}
