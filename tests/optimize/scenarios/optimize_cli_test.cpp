// `stream run --mapping optimize` as a user runs it: the files it writes, best_mapping.yaml rerun
// with `--mapping` to the same figures, Ctrl-C keeping the best found, and bad options refused
// with exit 2 naming the option.
#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>

#include <yaml-cpp/yaml.h>

#include "bad_optimize_options.hpp"
#include "child_process.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::test::read;
using stream::test::run_stream;

namespace {

const std::string kInputs = STREAM_INPUTS_DIR;

std::string total_latency_line(const std::string& out) {
  const auto at = out.find("Total latency:");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

}  // namespace

TEST(OptimizeCli, WritesItsFilesAndTheBestMappingRerunsToItsFigures) {
  const auto dir = stream::test::fresh_scratch_dir("optimize", "cli");
  const std::string common = "--hardware " + kInputs + "/hardware/tpu_like_quad_core.yaml --workload " + kInputs +
                             "/workload/resnet18_int8.onnx --out " + dir.string();
  const auto r = run_stream("run " + common + " --experiment-id opt --mapping 'optimize?evaluations=64&jobs=2&seed=5'");
  ASSERT_EQ(r.code, 0) << r.out;
  const fs::path out = dir / "opt";
  for (const char* f : {"optimize.yaml", "best_mapping.yaml", "summary.yaml", "report.html"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  const YAML::Node o = YAML::LoadFile((out / "optimize.yaml").string());
  EXPECT_EQ(o["budget"]["spent"].as<int>(), 64);
  EXPECT_EQ(o["candidates"].size(), 65u);  // the automatic mapping and 64 candidates
  const auto best = o["best"]["latency"].as<long long>();
  EXPECT_LE(best, o["automatic"]["latency"].as<long long>());
  EXPECT_NE(r.out.find("Optimizer:"), std::string::npos) << r.out;
  EXPECT_NE(total_latency_line(r.out).find(std::to_string(best)), std::string::npos) << r.out;
  // The user reruns the best mapping as a mapping file.
  const auto again = run_stream("run " + common + " --experiment-id rerun --mapping " + (out / "best_mapping.yaml").string());
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(total_latency_line(again.out), total_latency_line(r.out));
  const YAML::Node a = YAML::LoadFile((out / "summary.yaml").string()), b = YAML::LoadFile((dir / "rerun" / "summary.yaml").string());
  EXPECT_EQ(YAML::Dump(a["total_energy"]), YAML::Dump(b["total_energy"]));
}

TEST(OptimizeCli, CtrlCKeepsTheBestFoundSoFar) {
  const auto dir = stream::test::fresh_scratch_dir("optimize", "interrupt");
  const auto log = dir / "log.txt";
  const pid_t pid = stream::test::spawn_stream({"run", "--workload", kInputs + "/workload/resnet18_int8.onnx", "--out",
                                                dir.string(), "--experiment-id", "opt", "--mapping",
                                                "optimize?evaluations=1000000&jobs=1"},
                                               log);
  ASSERT_GT(pid, 0);
  for (int i = 0; i < 3000 && read(log).find("evaluations, best") == std::string::npos; ++i) ::usleep(10'000);
  ASSERT_NE(read(log).find("evaluations, best"), std::string::npos) << "no progress line within 30 s:\n" << read(log);
  ::kill(pid, SIGINT);
  EXPECT_EQ(stream::test::wait_for(pid), 0) << read(log);
  const YAML::Node o = YAML::LoadFile((dir / "opt" / "optimize.yaml").string());
  EXPECT_TRUE(o["budget"]["cut_short"].as<bool>());
  EXPECT_LT(o["budget"]["spent"].as<long long>(), 1000000);
  EXPECT_LE(o["best"]["latency"].as<long long>(), o["automatic"]["latency"].as<long long>());
  EXPECT_NE(read(log).find("cut short by an interrupt"), std::string::npos) << read(log);
}

TEST(OptimizeCli, ABadOptionIsRefusedNamingIt) {
  const auto dir = stream::test::fresh_scratch_dir("optimize", "bad");
  for (const auto& [option, says] : stream::test::kBadOptimizeOptions) {
    const auto r = run_stream("run --out " + dir.string() + " --mapping '" + std::string(option) + "'");
    EXPECT_EQ(r.code, 2) << option << ": " << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << option << ": " << r.out;
    EXPECT_FALSE(fs::exists(dir / "tpu_like_quad_core-2conv_1_8_32_32_16_32_3-constraint_optimization")) << option;
  }
}

// The best mapping names the workload as the run prepared it: in name order, Softmax expanded or,
// under --no-decompose, whole. Either way the file reruns with the same options to the same figures.
TEST(OptimizeCli, TheBestMappingRerunsWithOrWithoutTheDecompositions) {
  const auto dir = stream::test::fresh_scratch_dir("optimize", "decompose");
  for (const std::string flags : {"", " --no-decompose"}) {
    const std::string common = "--workload " + kInputs + "/workload/attention_pytorch.onnx --out " + dir.string() + flags;
    const auto r = run_stream("run " + common + " --experiment-id opt --mapping 'optimize?evaluations=24&jobs=2'");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(read(dir / "opt" / "best_mapping.yaml").find(flags.empty() ? "name: softmax_exp" : "name: softmax\n"), std::string::npos)
        << flags;
    const auto again = run_stream("run " + common + " --experiment-id rerun --mapping " + (dir / "opt" / "best_mapping.yaml").string());
    ASSERT_EQ(again.code, 0) << again.out;
    EXPECT_EQ(total_latency_line(again.out), total_latency_line(r.out)) << flags;
  }
}
