// The reference's larger models end to end on tpu_like_quad_core with automatic mapping and
// automatic fusion cut points. ResNet-18 (the shared fp32 PyTorch export, issue 6): every group
// gets an allocation within the 5 s target. FSRCNN: see its test.
//
// With the reference's rules alone, the layer1/layer2 groups (56x56x64 and 28x28x128 fp32
// activations) are infeasible: spec §3.2 step 1 puts every Relu and Add on the 1 Mbit SIMD core
// (the only core listing them), whose tensors fall into two unrelated dim families (conv1 outputs
// over conv1's oy/ox/k, conv2/Add outputs over conv2's), and with the 1024 steady-state tile cap
// the resident footprint of layer1 alone is at least 12.8 Mbit/a + 25.7 Mbit/b with a*b <= 1024,
// i.e. >= 1.13 Mbit > 1 Mbit, before double buffering. The pipeline's memory fallback tiles finer
// and then maps such a group again without the blocking specialised core; the strict run
// (--no-memory-fallback) keeps the reference's behaviour and is checked against it here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "stream_cli.hpp"

namespace fs = std::filesystem;

namespace {

using stream::test::read;

struct RunOutput {
  fs::path dir;  ///< the experiment directory
  nlohmann::json summary;
  nlohmann::json timings;
  std::string stderr_text;
  int exit_code = -1;
};

/// `stream run` on a workload of the reference's inputs, on the TPU-like quad core.
RunOutput run_model(const std::string& model, const std::string& id, const std::string& extra = "") {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / (model + "_" + id);
  fs::remove_all(out);
  fs::create_directories(out);
  const std::string cmd = std::string(STREAM_BUILD_DIR) + "/bin/stream run --workload " + STREAM_TEST_DATA_DIR +
                          "/reference/stream-inputs/workload/" + model + ".onnx --hardware " + STREAM_INPUTS_DIR +
                          "/hardware/tpu_like_quad_core.yaml --out " + out.string() + " --experiment-id exp " + extra +
                          " > " + (out / "stdout").string() + " 2> " + (out / "stderr").string();
  RunOutput r;
  r.dir = out / "exp";
  r.exit_code = std::system(cmd.c_str());
  const auto summary = out / "exp" / "summary.json";
  if (fs::exists(summary)) r.summary = nlohmann::json::parse(read(summary));
  const auto timings = out / "exp" / "timings.json";
  if (fs::exists(timings)) r.timings = nlohmann::json::parse(read(timings));
  r.stderr_text = read(out / "stderr");
  return r;
}

}  // namespace

// (Its run time is measured in bench/, not asserted here: a loaded CI machine is no clock.)
TEST(ResNet18, TpuQuadCoreEveryGroupGetsAnOptimalAllocation) {
  const RunOutput r = run_model("resnet18", "fallback");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  ASSERT_TRUE(r.summary.contains("groups")) << r.stderr_text;
  const auto& groups = r.summary["groups"];
  // 9 automatic cut points plus the Flatten boundary in the reference (11 groups); the Flatten
  // folds into the Gemm here (seed: layout ops fold), so it is no boundary: 10 groups.
  EXPECT_EQ(groups.size(), 10u);
  std::int64_t sum = 0;
  for (const auto& [name, g] : groups.items()) {
    EXPECT_EQ(g["status"].get<std::string>(), "OPTIMAL") << name << "\n" << r.stderr_text;
    EXPECT_GT(g["latency"].get<std::int64_t>(), 0) << name;
    sum += g["latency"].get<std::int64_t>();
  }
  EXPECT_EQ(r.summary["total_latency"].get<std::int64_t>(), sum);  // groups run back to back
}

TEST(ResNet18, MemoryFallbackTouchesOnlyGroupsTheReferenceRulesCannotAllocate) {
  const RunOutput strict = run_model("resnet18", "strict", "--no-memory-fallback");
  const RunOutput fallback = run_model("resnet18", "fallback2");
  ASSERT_TRUE(strict.summary.contains("groups")) << strict.stderr_text;
  ASSERT_TRUE(fallback.summary.contains("groups")) << fallback.stderr_text;
  EXPECT_NE(strict.exit_code, 0);  // some group has no allocation under the reference's rules
  int infeasible = 0;
  for (const auto& [name, s] : strict.summary["groups"].items()) {
    const auto& f = fallback.summary["groups"][name];
    if (s["status"].get<std::string>() == "OPTIMAL") {
      // A group that fits keeps the reference's mapping and figures.
      EXPECT_FALSE(f.contains("memory_fallback")) << name;
      EXPECT_EQ(f["latency"], s["latency"]) << name;
    } else {
      ++infeasible;
      EXPECT_EQ(s["status"].get<std::string>(), "INFEASIBLE") << name;
      ASSERT_TRUE(f.contains("memory_fallback")) << name;
      // At most the SIMD core (5, 1 Mbit, the only core listing Relu and Add) is taken out, and
      // then the group's mapping file no longer uses it.
      const auto& excluded = f["memory_fallback"]["excluded_cores"];
      EXPECT_LE(excluded.size(), 1u) << name;
      if (!excluded.empty()) {
        EXPECT_EQ(excluded[0], 5) << name;
        const std::string mapping = read(fallback.dir / name / "mapping.yaml");
        EXPECT_EQ(mapping.find("[5]"), std::string::npos) << name << "\n" << mapping;
        EXPECT_EQ(mapping.find(", 5"), std::string::npos) << name << "\n" << mapping;
      }
    }
  }
  EXPECT_GE(infeasible, 1);
  EXPECT_NE(strict.stderr_text.find("memory_capacity: core 5"), std::string::npos) << strict.stderr_text;
}

// FSRCNN (int8, 8 convolutions, no MaxPool and no Add: one automatic fusion group). Its halos keep
// every convolution's spatial dims apart, so the 1024 steady-state tile cap spreads over eight dim
// families and the fused group cannot fit the TPU cores' 16 Mbit at any fill: the last step of the
// memory fallback cuts it into one group per layer, each of which fits.
TEST(Fsrcnn, TpuQuadCoreFusedGroupIsCutPerLayerWhenItCannotFit) {
  const RunOutput strict = run_model("fsrcnn", "strict", "--no-memory-fallback");
  ASSERT_TRUE(strict.summary.contains("groups")) << strict.stderr_text;
  ASSERT_EQ(strict.summary["groups"].size(), 1u);
  EXPECT_EQ(strict.summary["groups"]["group_0"]["status"].get<std::string>(), "INFEASIBLE");
  EXPECT_NE(strict.exit_code, 0);

  const RunOutput r = run_model("fsrcnn", "fallback");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  ASSERT_TRUE(r.summary.contains("groups")) << r.stderr_text;
  const auto& groups = r.summary["groups"];
  EXPECT_EQ(groups.size(), 8u);  // one per convolution
  std::int64_t sum = 0;
  for (const auto& [name, g] : groups.items()) {
    EXPECT_EQ(g["status"].get<std::string>(), "OPTIMAL") << name << "\n" << r.stderr_text;
    ASSERT_TRUE(g.contains("memory_fallback")) << name;
    EXPECT_EQ(g["memory_fallback"]["split_from"], 0) << name;
    sum += g["latency"].get<std::int64_t>();
  }
  EXPECT_EQ(r.summary["total_latency"].get<std::int64_t>(), sum);
  EXPECT_NE(r.stderr_text.find("cutting it into 8 groups, one per layer"), std::string::npos) << r.stderr_text;
  // Only final answers write models: no group keeps a model.mps from a failed attempt.
  for (const auto& [name, g] : groups.items()) EXPECT_FALSE(fs::exists(r.dir / name / "model.mps")) << name;
}
