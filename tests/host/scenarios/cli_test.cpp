// The `stream` executable end to end: workload sources shared by parse, run and core-cost.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "stream_cli.hpp"

namespace {

using Result = stream::test::CliResult;

Result run(const std::string& args) { return stream::test::run_stream(args, stream::test::Stderr::Discard); }

std::size_t count_type(const nlohmann::json& doc, const std::string& type) {
  std::size_t n = 0;
  for (const auto& node : doc["nodes"]) n += node["type"] == type;
  return n;
}

const std::string kInputs = STREAM_INPUTS_DIR;

}  // namespace

TEST(Cli, ParseBuildsABlockWithParameters) {
  auto r = run("parse --block attention -p heads=2 -p seq=16 --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(count_type(doc, "Softmax"), 1u);
  // seq=16 reaches the score loops: some node has a loop of size 16.
  bool seq = false;
  for (const auto& n : doc["nodes"])
    for (const auto& d : n["loop_dims"]) seq = seq || d["size"] == 16;
  EXPECT_TRUE(seq);
}

TEST(Cli, DecomposeReplacesSoftmaxBySubOperators) {
  auto r = run("parse --block attention --decompose --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  // Softmax -> ReduceMax, Exp, ReduceSum, Div (workload-spec §5.1).
  EXPECT_EQ(count_type(doc, "Softmax"), 0u);
  EXPECT_EQ(count_type(doc, "ReduceMax"), 1u);
  EXPECT_EQ(count_type(doc, "ReduceSum"), 1u);
  EXPECT_EQ(count_type(doc, "Div"), 1u);
}

TEST(Cli, ParseShowsEveryTensorRowMajor) {
  // Nothing chooses another layout at parse time: every operand's order is 0..rank-1, unblocked.
  auto r = run("parse " + kInputs + "/workload/2conv_1_8_32_32_16_32_3.onnx --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  std::size_t operands = 0;
  for (const auto& n : doc["nodes"])
    for (const auto& op : n["operands"]) {
      const auto rank = op["shape"].size();
      std::vector<int> row_major(rank);
      for (std::size_t i = 0; i < rank; ++i) row_major[i] = static_cast<int>(i);
      EXPECT_EQ(op["layout"]["order"].get<std::vector<int>>(), row_major) << op["tensor"];
      EXPECT_TRUE(op["layout"]["block"].is_null()) << op["tensor"];
      ++operands;
    }
  // 3 in-edges + 2 convs x 3 operands + 1 out-edge.
  EXPECT_EQ(operands, 10u);
  const auto& conv_input = doc["nodes"][3]["operands"][0];
  EXPECT_EQ(conv_input["layout"]["text"], "(0,1,2,3)");
}

TEST(Cli, BadSourcesAreClearErrors) {
  EXPECT_EQ(run("parse --block no_such_block").code, 2);
  EXPECT_EQ(run("parse --block attention -p nonsense=1").code, 2);
  EXPECT_EQ(run("parse --block attention -p heads").code, 2);
  EXPECT_EQ(run("parse " + kInputs + "/workload/2conv_1_8_32_32_16_32_3.onnx --block attention").code, 2);
  EXPECT_EQ(run("parse").code, 2);
  EXPECT_EQ(run("parse /no/such/model.onnx").code, 2);
}

TEST(Cli, CoreCostTableOfAWorkloadMatchesTheSpecFigures) {
  // pipeline-spec §6.3: per-core tiles of the 2-conv fixture on tpu_like (ox split over 4 cores).
  auto r = run("core-cost --hardware " + kInputs + "/hardware/tpu_like_quad_core.yaml --workload " + kInputs +
                  "/workload/2conv_1_8_32_32_16_32_3.onnx --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  std::map<std::string, std::set<double>> latency;
  for (const auto& e : doc["entries"]) latency[e["node"].get<std::string>()].insert(e["latency_total"].get<double>());
  ASSERT_EQ(latency.size(), 2u) << r.out;
  EXPECT_EQ(latency.begin()->second, (std::set<double>{2376}));   // Conv1 on every tpu_like core
  EXPECT_EQ(latency.rbegin()->second, (std::set<double>{4656}));  // Conv2
}

TEST(Cli, RunMapsADecomposedBlockLikeAWorkloadFile) {
  const std::string out = ::testing::TempDir() + "stream-cli-run";
  auto r = run("run --block attention -p seq=32 --decompose --out " + out + " --experiment-id attn");
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream lut(out + "/attn/group_0/core_cost_lut.yaml");
  const std::string text((std::istreambuf_iterator<char>(lut)), std::istreambuf_iterator<char>());
  // The decomposition reached the pipeline: the Softmax's sub-operators are costed, the node is not.
  EXPECT_NE(text.find("- name: softmax_max\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("- name: softmax\n"), std::string::npos) << text;
  EXPECT_NE(r.out.find("OPTIMAL"), std::string::npos) << r.out;
}

TEST(Cli, RunReadsTheHardwareWhileTheWorkloadLoadsAndReportsInAFixedOrder) {
  // The accelerator is read on another thread: its error still wins over the workload's, as when
  // it was read first, and its warnings come once, after the workload's progress line.
  const auto both_bad = stream::test::run_stream("run --hardware /no/such/hw.yaml --workload /no/such/model.onnx");
  EXPECT_EQ(both_bad.code, 2);
  EXPECT_NE(both_bad.out.find("/no/such/hw.yaml"), std::string::npos) << both_bad.out;
  EXPECT_EQ(both_bad.out.find("/no/such/model.onnx: "), std::string::npos) << both_bad.out;
  const auto bad_workload = stream::test::run_stream("run --workload /no/such/model.onnx");
  EXPECT_EQ(bad_workload.code, 2);
  EXPECT_NE(bad_workload.out.find("/no/such/model.onnx"), std::string::npos) << bad_workload.out;
  const auto dir = stream::test::fresh_scratch_dir("host", "run_order");
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto ok = stream::test::run_stream("run --out '" + dir.string() + "'");
    ASSERT_EQ(ok.code, 0) << ok.out;
    // tpu_like_quad_core.yaml's bus replaces its 12 links: the reader's one line, not one per link.
    const std::string summary = "tpu_like_quad_core.yaml: 12 links of core_connectivity are replaced by the "
                                "bus at line 69 (a later entry wins on the core pairs they share); `stream validate` "
                                "lists them";
    const auto warning = ok.out.find(summary);
    ASSERT_NE(warning, std::string::npos) << ok.out;
    EXPECT_EQ(ok.out.find("12 links of", warning + summary.size()), std::string::npos) << ok.out;
    EXPECT_EQ(ok.out.find("replaces core_connectivity"), std::string::npos) << ok.out;
    EXPECT_LT(ok.out.find("[stream run] workload "), warning) << ok.out;
    EXPECT_LT(warning, ok.out.find("group 0: ")) << ok.out;
    EXPECT_NE(ok.out.find("Total latency:            14344 cycles"), std::string::npos) << ok.out;
  }
}

TEST(Cli, TheSolverModulesAreOpenedOnlyWhenAModelIsSolved) {
  // A copy of the build tree's layout (bin/stream, lib/libstream_core, lib/stream/plugins) without
  // the solver's modules: a command that solves nothing runs; a run says which module is missing
  // and exits 1 (an internal failure, not bad input). With Clp's module alone the default run
  // solves: its allocation MILP is integral at the root, so CBC's module is never opened.
  namespace fs = std::filesystem;
  const fs::path build = STREAM_BUILD_DIR;
  const auto tree = stream::test::fresh_scratch_dir("host", "solver_modules");
  fs::create_directories(tree / "bin");
  fs::create_directories(tree / "lib" / "stream");
  fs::copy_file(build / "bin" / "stream", tree / "bin" / "stream");  // $ORIGIN is the real file's
  for (const auto& e : fs::directory_iterator(build / "lib"))
    if (e.path().filename().string().starts_with("libstream_core.so"))
      fs::create_symlink(e.path(), tree / "lib" / e.path().filename());
  fs::create_directory_symlink(build / "lib" / "stream" / "plugins", tree / "lib" / "stream" / "plugins");
  const std::string stream = "'" + (tree / "bin" / "stream").string() + "' ";
  const std::string run = stream + "run --hardware " + kInputs + "/hardware/tpu_like_quad_core.yaml --workload " + kInputs +
                          "/workload/2conv_1_8_32_32_16_32_3.onnx --summary-only --out '" + (tree / "out").string() + "' 2>&1";

  EXPECT_EQ(stream::test::run_command(stream + "--version").code, 0);
  EXPECT_EQ(stream::test::run_command(stream + "parse " + kInputs + "/workload/2conv_1_8_32_32_16_32_3.onnx").code, 0);
  const auto missing = stream::test::run_command(run);
  EXPECT_EQ(missing.code, 1) << missing.out;
  EXPECT_NE(missing.out.find("cannot load the MILP solver module"), std::string::npos) << missing.out;
  EXPECT_NE(missing.out.find((tree / "lib" / "stream" / "libstream_clp.so").string()), std::string::npos) << missing.out;

  fs::create_symlink(build / "lib" / "stream" / "libstream_clp.so", tree / "lib" / "stream" / "libstream_clp.so");
  const auto clp_only = stream::test::run_command(run);
  EXPECT_EQ(clp_only.code, 0) << clp_only.out;
  EXPECT_NE(clp_only.out.find("Total latency:            14344 cycles"), std::string::npos) << clp_only.out;
}
