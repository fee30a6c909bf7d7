// `stream validate` end to end: the built executable on reference files, on a broken file and on a
// mapping. Skipped when the executable has not been built.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kExe = fs::path(STREAM_BUILD_DIR) / "bin" / "stream";
const fs::path kInputs = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs";

using Result = stream::test::CliResult;  // stdout and stderr together

Result run(const std::string& args) {
  return stream::test::run_stream(args);
}

}  // namespace

TEST(ValidateCommand, SummarisesReferenceHardware) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  const Result r = run("validate --hardware '" + (kInputs / "hardware/tpu_like_quad_core.yaml").string() + "'");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("7 cores"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("array 32x32 (1024 units)"), std::string::npos);
  EXPECT_NE(r.out.find("capacity 16777216 bits"), std::string::npos);
  EXPECT_NE(r.out.find("same as core 0"), std::string::npos);
  EXPECT_NE(r.out.find("[12] bus 0-6, 128 bits/cycle, 42 directed pairs"), std::string::npos) << r.out;
  // The one-line summary a run prints, then validate's list of each replacement.
  EXPECT_NE(r.out.find("12 links of core_connectivity are replaced by the bus at line 69"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("replaces core_connectivity[0]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("core_connectivity[11] (link [3, 5] bw 32) on 24 directed core pair(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("valid"), std::string::npos);
}

TEST(ValidateCommand, ReportsEveryErrorAndExitsTwo) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  // Two levels deep, so the legacy core search (parent and grandparent folders) stays inside.
  const fs::path root = fs::temp_directory_path() / "stream_validate_cli_test";
  const fs::path dir = root / "a" / "b";
  fs::create_directories(dir);
  const fs::path file = dir / "broken.yaml";
  {
    std::ofstream f(file);
    f << "name: x\n"
         "colour: 1\n"
         "cores:\n"
         "  0: elsewhere/cores/tpu_like.yaml\n"  // well formed, but no such file near broken.yaml
         "offchip_core_id: 3\n"
         "core_connectivity: []\n";
  }
  const Result r = run("validate --hardware '" + file.string() + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("broken.yaml:2:1: error: accelerator: unknown key 'colour'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("broken.yaml:5:18: error: accelerator: offchip_core_id does not correspond"), std::string::npos)
      << r.out;
  // Whatever folder the checkout sits in (a '.' in it once made this reference malformed instead).
  EXPECT_NE(r.out.find("broken.yaml:4:6: error: Core with filename `elsewhere/cores/tpu_like.yaml"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("3 errors"), std::string::npos) << r.out;
  fs::remove_all(root);
}

TEST(ValidateCommand, ChecksMappingAgainstHardware) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  const std::string hw = "--hardware '" + (kInputs / "hardware/tpu_like_quad_core.yaml").string() + "'";
  const Result ok = run("validate -q " + hw + " --mapping '" + (kInputs / "mapping/tpu_like_quad_core.yaml").string() + "'");
  EXPECT_EQ(ok.code, 0) << ok.out;
  // The fused SwiGLU mapping names cores up to 38: tpu_like_quad_core has 7.
  const Result bad =
      run("validate -q " + hw + " --mapping '" + (kInputs / "mapping/swiglu_tpu_v7_fused.yaml").string() + "'");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("core 37 does not exist (the accelerator has 7 cores)"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("core 6 (offchip) cannot run computations"), std::string::npos) << bad.out;
}

TEST(ValidateCommand, JsonOutput) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  const Result r = run("validate --format json --hardware '" + (kInputs / "hardware/simba.yaml").string() + "' 2>/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["valid"].get<bool>());
  EXPECT_EQ(j["accelerator"]["cores"].size(), 37u);
  EXPECT_EQ(j["accelerator"]["offchip_core_id"].get<int>(), 36);
  ASSERT_EQ(j["accelerator"]["connections"].size(), 66u);
  for (const auto& c : j["accelerator"]["connections"]) EXPECT_EQ(c["directed_pairs_after_replacement"].get<int>(), 2);
  EXPECT_EQ(j["accelerator"]["cores"][5]["capacity_bits"].get<std::int64_t>(), 2097152);
  EXPECT_EQ(j["accelerator"]["cores"][5]["same_performance_as"].get<int>(), 0);

  const Result bad = run("validate --format json --hardware '" + (kInputs / "hardware/simba.yaml").string() +
                         "' --mapping '" + (kInputs / "mapping/simba.yaml").string() + "' 2>/dev/null");
  EXPECT_EQ(bad.code, 2);
  const auto jb = nlohmann::json::parse(bad.out);
  EXPECT_FALSE(jb["valid"].get<bool>());
  ASSERT_FALSE(jb["errors"].empty());
  EXPECT_GT(jb["errors"][0]["line"].get<int>(), 0);
  EXPECT_NE(jb["errors"][0]["file"].get<std::string>().find("simba.yaml"), std::string::npos);
}

// Issue 33: a core file whose ports have no `allocation` lines was called valid, and `stream run`
// then estimated every node (384 of 384 on resnet18_int8), 35% faster than the correct file.
namespace {
const fs::path kRepoHardware = fs::path(STREAM_SOURCE_DIR) / "inputs" / "hardware";
const fs::path kBrokenMesh = fs::path(STREAM_SOURCE_DIR) / "tests" / "data" / "hardware" / "mesh_8core_32x32_no_allocation.yaml";
const std::string kBrokenCore = (kBrokenMesh.parent_path() / "cores" / "mesh_core_32x32_no_allocation.yaml").string();
}  // namespace

TEST(ValidateCommand, CoreWithoutPortAllocationsIsInvalid) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  const Result r = run("validate --hardware '" + kBrokenMesh.string() + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(kBrokenCore + ":25:3: error: core 'mesh_core_32x32': memory level 0 of operand O (rf_4B_O) has "
                                     "no port allocated for reads towards lower levels ('O, tl')"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(kBrokenCore + ":7:3: error: core 'mesh_core_32x32': memory level 0 of operand I2 (rf_1B_W)"),
            std::string::npos)
      << r.out;
  // Eight identical cores from one file: each (memory, operand) said once, not eight times.
  EXPECT_NE(r.out.find("\n5 errors\n"), std::string::npos) << r.out;
}

TEST(ValidateCommand, RunRefusesHardwareTheCostModelCannotUse) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  const auto out = stream::test::fresh_scratch_dir("hardware", "run_no_allocation");
  const Result r = run("run --hardware '" + kBrokenMesh.string() + "' --workload '" +
                       (fs::path(STREAM_SOURCE_DIR) / "inputs/workload/resnet18_int8.onnx").string() + "' --out '" +
                       out.string() + "' --experiment-id x");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(kBrokenCore + ":25:3: error: core 'mesh_core_32x32': memory level 0 of operand O (rf_4B_O)"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out / "x" / "summary.yaml")) << r.out;
}

TEST(ValidateCommand, EveryBundledHardwareFileIsValid) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(kRepoHardware)) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    const Result r = run("validate -q --hardware '" + e.path().string() + "'");
    EXPECT_EQ(r.code, 0) << e.path() << "\n" << r.out;
    EXPECT_NE(r.out.find("valid"), std::string::npos) << e.path() << "\n" << r.out;
  }
  EXPECT_GE(files, 11u);  // the reference's nine, tpu_like_array and mesh_8core_32x32
}

// `stream validate` checks the workload `stream run` schedules: on the automatic path the
// attention block's Softmax is expanded (max, exp, sum, div: the model's 7 computation nodes
// become 10), and its fusion groups are the run's (summary.json, one entry per group, no memory
// fallback cut on this model).
TEST(ValidateCommand, ChecksTheWorkloadStreamRunSchedules) {
  if (!fs::exists(kExe)) GTEST_SKIP() << "stream executable not built";
  const std::string inputs = "--hardware hardware/tpu_like_quad_core.yaml ";
  const Result v = run("validate " + inputs + "--workload workload/attention_pytorch.onnx");
  ASSERT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find(", 10 computation nodes, "), std::string::npos) << v.out;
  const fs::path out = stream::test::fresh_scratch_dir("hardware", "validate_schedules");
  const Result r = run("run " + inputs + "--workload workload/attention_pytorch.onnx --experiment-id a --out '" + out.string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto summary = nlohmann::json::parse(stream::test::read(out / "a" / "summary.json"));
  const std::size_t groups = summary["groups"].size();
  std::size_t layers = 0;  // each group's mapping.yaml lists its layers, then its fused groups
  for (std::size_t g = 0; g < groups; ++g) {
    const std::string mapping = stream::test::read(out / "a" / ("group_" + std::to_string(g)) / "mapping.yaml");
    const std::string listed = mapping.substr(0, mapping.find("\nfused_groups:"));
    for (std::size_t at = listed.find("\n  - name: "); at != std::string::npos; at = listed.find("\n  - name: ", at + 1)) ++layers;
  }
  EXPECT_EQ(layers, 10u);
  EXPECT_NE(v.out.find(", " + std::to_string(groups) + " fusion group"), std::string::npos) << v.out << "\nrun: " << groups;
}
