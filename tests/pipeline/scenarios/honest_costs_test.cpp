// Estimated costs say so (issue 11): an fp32 model on hardware whose output registers hold 16
// bits cannot be costed by the per-core model, and every place its figures reach says which pairs
// are estimates and why; `--cast bf16` re-types the model the way a deployment compiler would and
// the per-core model then costs every pair.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::test::read;
using stream::test::run_stream;

namespace {

// The reference's fp32 2-conv: [1,8,56,56] -> Conv(8, 3x3) -> Conv(8, 3x3).
const std::string kFp32TwoConv = std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/workload/2_conv.onnx";

struct CostRun {
  stream::test::CliResult cli;
  nlohmann::json summary;
  std::string lut;  ///< group_0/core_cost_lut.yaml
};

CostRun run(const std::string& name, const std::string& extra) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "honest_costs" / name;
  fs::remove_all(out);
  CostRun r;
  r.cli = run_stream("run --workload " + kFp32TwoConv + " --out " + out.string() + " --experiment-id exp " + extra);
  if (fs::exists(out / "exp" / "summary.json")) r.summary = nlohmann::json::parse(read(out / "exp" / "summary.json"));
  r.lut = read(out / "exp" / "group_0" / "core_cost_lut.yaml");
  return r;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

// tpu_like's output register file (rf_2B) holds 16 bits: a 32-bit output fits no loop ordering.
// Automatic mapping splits both convolutions over the four compute cores: 2 x 4 = 8 pairs.
TEST(HonestCosts, Fp32ModelOnTpuLikeIsEstimatedAndEveryOutputSaysSo) {
  const CostRun r = run("fp32", "");
  ASSERT_EQ(r.cli.code, 0) << r.cli.out;
  EXPECT_EQ(r.summary["costs"]["entries"], 8);
  EXPECT_EQ(r.summary["costs"]["fallback"], 8);
  EXPECT_EQ(r.summary["groups"]["group_0"]["costs"]["fallback"], 8);
  EXPECT_FALSE(r.summary.contains("cast"));
  EXPECT_EQ(count(r.lut, "backend: ideal-cycle"), 8u) << r.lut;
  EXPECT_EQ(count(r.lut, "reason: "), 8u);
  EXPECT_NE(r.lut.find("operand widths in bits: O 32, A 32, B 32"), std::string::npos) << r.lut;
  EXPECT_NE(r.cli.out.find("warning: 8 of 8 (node, core) costs are ideal-cycle estimates"), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("node 'conv1' on core 0"), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("8 x NoValidLoopOrderingFoundException"), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("estimated: 8 of 8 (node, core) costs"), std::string::npos) << r.cli.out;  // stdout table
}

// --cast bf16 re-types input, both weights, conv1's output and the output: five tensors.
TEST(HonestCosts, CastToBf16LetsThePerCoreModelCostEveryPair) {
  const CostRun r = run("bf16", "--cast bf16");
  ASSERT_EQ(r.cli.code, 0) << r.cli.out;
  EXPECT_EQ(r.summary["cast"]["to"], "bf16");
  EXPECT_EQ(r.summary["cast"]["tensors"], 5);
  EXPECT_EQ(r.summary["costs"]["entries"], 8);
  EXPECT_EQ(r.summary["costs"]["fallback"], 0);
  EXPECT_EQ(count(r.lut, "backend: zigzag"), 8u) << r.lut;
  EXPECT_EQ(r.lut.find("reason:"), std::string::npos);
  EXPECT_EQ(r.cli.out.find("ideal-cycle estimates"), std::string::npos) << r.cli.out;
}

TEST(HonestCosts, ParseCastShowsTheNewTypes) {
  const auto r = run_stream("parse " + kFp32TwoConv + " --cast int8 --format json", stream::test::Stderr::Discard);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& n : j["nodes"])
    for (const auto& op : n["operands"]) EXPECT_EQ(op["dtype"], "i8") << n["name"] << " " << op["tensor"];
}

TEST(HonestCosts, AnUnknownCastTypeIsRejected) {
  const auto r = run_stream("parse " + kFp32TwoConv + " --cast f64");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--cast"), std::string::npos) << r.out;
}
