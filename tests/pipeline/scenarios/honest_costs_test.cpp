// Estimated costs say so (issues 11 and 33): an fp32 model on hardware whose output registers hold
// 16 bits cannot be costed by the per-core model, and every place its figures reach says which
// pairs are estimates, why (in words) and what share of latency they carry; `--strict` refuses
// them for a Conv; `--cast bf16` re-types the model the way a deployment compiler would and
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

// Why the per-core model cannot cost an fp32 Conv there, in words (cost/fallback_reason.hpp).
const std::string kRegisterTooSmall =
    "no loop ordering fits: memory 'rf_2B' holds 16 bits, less than one 32-bit element of the output (the hardware "
    "is sized for narrower types: try --cast)";

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
  // The reason in words; the model's own text, with the operand widths, in `detail`.
  EXPECT_EQ(count(r.lut, "reason: \"" + kRegisterTooSmall + "\""), 8u) << r.lut;
  EXPECT_EQ(count(r.lut, "detail: \"NoValidLoopOrderingFoundException"), 8u) << r.lut;
  EXPECT_NE(r.lut.find("operand widths in bits: O 32, A 32, B 32"), std::string::npos) << r.lut;
  EXPECT_NE(r.cli.out.find("warning: 8 of 8 (node, core) costs are ideal-cycle estimates"), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("node 'conv1' on core 0"), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("8 x " + kRegisterTooSmall), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("estimated: 8 of 8 (node, core) costs"), std::string::npos) << r.cli.out;  // stdout table
  // Every compute cycle of every group rests on an estimate: 100 % of the latency.
  EXPECT_EQ(r.summary["costs"]["scheduled_entries"], 8);
  EXPECT_EQ(r.summary["costs"]["scheduled_fallback"], 8);
  EXPECT_EQ(r.summary["costs"]["latency_share"], 100.0);
  EXPECT_EQ(r.summary["estimate_reasons"][0]["reason"], kRegisterTooSmall);
  EXPECT_EQ(r.summary["estimate_reasons"][0]["pairs"], 8);
  EXPECT_NE(r.cli.out.find("carrying 100 % of the latency"), std::string::npos) << r.cli.out;
}

// Where the estimates are reported, an fp32 model on hardware sized for narrower types is told to
// try --cast; a --summary-only run, which writes no core_cost_lut.yaml, points at summary.yaml's
// estimate_reasons instead (it said "see core_cost_lut.yaml").
TEST(HonestCosts, SummaryOnlyPointsAtTheSummaryAndTheEstimateHintsCast) {
  const CostRun r = run("summary_only", "--summary-only");
  ASSERT_EQ(r.cli.code, 0) << r.cli.out;
  EXPECT_TRUE(r.lut.empty());  // no group files
  EXPECT_EQ(r.cli.out.find("see core_cost_lut.yaml"), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("% of the energy; the model computes in fp32 and the hardware is sized for narrower types: "
                           "try --cast bf16 (or int8), as a deployment compiler casts it; see summary.yaml's "
                           "estimate_reasons (--summary-only writes no per-group core_cost_lut.yaml):"),
            std::string::npos) << r.cli.out;
  const auto table = r.cli.out.find("estimated: 8 of 8 (node, core) costs");
  ASSERT_NE(table, std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("try --cast bf16", table), std::string::npos) << r.cli.out;
  EXPECT_EQ(r.summary["estimate_reasons"][0]["reason"], kRegisterTooSmall);
  // With the group files, the warning points at them as before, the hint still there.
  const CostRun full = run("with_files", "");
  EXPECT_NE(full.cli.out.find("as a deployment compiler casts it; see core_cost_lut.yaml:"), std::string::npos) << full.cli.out;
}

// --strict: a Conv's estimate is an error naming the first pair and the reason, exit 2, and no
// result directory is written.
TEST(HonestCosts, StrictRefusesAConvolutionEstimate) {
  const CostRun r = run("strict", "--strict");
  EXPECT_EQ(r.cli.code, 2) << r.cli.out;
  EXPECT_NE(r.cli.out.find("--strict: group 0 node 'conv1' (Conv) on core 0 would be an ideal-cycle estimate, not a "
                           "per-core model figure: " + kRegisterTooSmall),
            std::string::npos)
      << r.cli.out;
  EXPECT_TRUE(r.summary.is_null());
  EXPECT_FALSE(fs::exists(fs::path(STREAM_BUILD_DIR) / "test_scratch" / "honest_costs" / "strict" / "exp"));
  EXPECT_EQ(run("strict_bf16", "--strict --cast bf16").cli.code, 0);
}

// The int8 ResNet-18 on the 8-core mesh of 32x32 arrays: its 152 estimates are the Relu, MaxPool
// and GlobalAveragePool nodes on two-input arrays, none a MAC node, so --strict lets it run.
TEST(HonestCosts, StrictAcceptsEstimatesForNodesWithoutMacWork) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "honest_costs" / "mesh";
  fs::remove_all(out);
  const auto cli = run_stream("run --workload " + std::string(STREAM_INPUTS_DIR) + "/workload/resnet18_int8.onnx --hardware " +
                              STREAM_INPUTS_DIR + "/hardware/mesh_8core_32x32.yaml --out " + out.string() +
                              " --experiment-id exp --summary-only --strict");
  ASSERT_EQ(cli.code, 0) << cli.out;
  const auto summary = nlohmann::json::parse(read(out / "exp" / "summary.json"));
  EXPECT_EQ(summary["costs"]["entries"], 384);
  EXPECT_EQ(summary["costs"]["fallback"], 152);
  EXPECT_EQ(summary["costs"]["scheduled_fallback"], 152);
  ASSERT_EQ(summary["estimate_reasons"].size(), 1u);
  EXPECT_EQ(summary["estimate_reasons"][0]["detail"], "KeyError: I2");
  EXPECT_EQ(summary["estimate_reasons"][0]["reason"].get<std::string>().rfind("one-input operator on a two-input array", 0), 0u);
  // An int8 model whose estimates are for want of a second input: no cast would change them.
  EXPECT_EQ(cli.out.find("try --cast"), std::string::npos) << cli.out;
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
  const auto r = run_stream("parse " + kFp32TwoConv + " --cast c64");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--cast"), std::string::npos) << r.out;
}
