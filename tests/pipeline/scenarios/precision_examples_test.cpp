// The bundled examples at the precision the seed deploys them in (issue 11): ResNet-18 and FSRCNN
// in int8 (ResNet-18 with int32 biases), the SwiGLU and attention blocks in bf16, each end to end
// on the TPU-like quad core with automatic mapping. The generated int8 ResNet-18 and FSRCNN are
// checked against the reference's own exports (the fp32 ResNet-18 cast to int8 by `--cast int8`,
// and the int8 FSRCNN): same graph, so every group's latency must agree.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "result_files.hpp"

namespace fs = std::filesystem;
using namespace stream::test;

namespace {

const std::string kInputs = STREAM_INPUTS_DIR;
const std::string kShared = std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/workload/";
const std::set<std::string> kContractions{"Conv", "Gemm", "MatMul"};

fs::path run_example(const std::string& name, const std::string& args) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "precision" / name;
  fs::remove_all(out);
  const auto r = run_stream("run " + args + " --out " + out.string() + " --experiment-id exp");
  EXPECT_EQ(r.code, 0) << r.out;
  return out / "exp";
}

void expect_same_groups(const nlohmann::json& a, const nlohmann::json& b) {
  ASSERT_EQ(a["groups"].size(), b["groups"].size());
  for (const auto& [key, g] : a["groups"].items()) EXPECT_EQ(g["latency"], b["groups"][key]["latency"]) << key;
  EXPECT_EQ(a["total_latency"], b["total_latency"]);
}

}  // namespace

// ResNet-18's automatic cut points: the MaxPool and the Relu after each of the 8 residual Adds,
// without the last node: 9 cuts, 10 groups.
TEST(PrecisionExamples, ResNet18Int8MatchesTheReferenceExportCastToInt8) {
  const auto bundled = run_example("resnet18_int8", "--workload " + kInputs + "/workload/resnet18_int8.onnx");
  const auto cast = run_example("resnet18_cast", "--workload " + kShared + "resnet18.onnx --cast int8");
  const auto s = summary_of(bundled);
  ASSERT_EQ(s["groups"].size(), 10u);
  for (const auto& [key, g] : s["groups"].items()) EXPECT_EQ(g["status"], "OPTIMAL") << key;
  expect_same_groups(s, summary_of(cast));
  // 20 convolutions and the classifier, every (node, core) cost from the per-core model.
  const auto c = backend_count(bundled, kContractions);
  EXPECT_GE(c.total, 21u);
  EXPECT_EQ(c.model, c.total);
}

TEST(PrecisionExamples, ResNet18Int8KeepsInt8ActivationsAndWeights) {
  const auto r = run_stream("parse " + kInputs + "/workload/resnet18_int8.onnx --format json", Stderr::Discard);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  std::size_t convs = 0;
  for (const auto& n : j["nodes"]) {
    if (n["type"] != "Conv") continue;
    ++convs;
    for (const auto& op : n["operands"]) EXPECT_EQ(op["dtype"], "i8") << n["name"];
  }
  EXPECT_EQ(convs, 20u);  // 1 stem + 16 in the blocks + 3 downsample
}

TEST(PrecisionExamples, FsrcnnInt8MatchesTheReferenceExport) {
  const auto bundled = run_example("fsrcnn_int8", "--workload " + kInputs + "/workload/fsrcnn_int8.onnx");
  const auto reference = run_example("fsrcnn_reference", "--workload " + kShared + "fsrcnn.onnx");
  const auto s = summary_of(bundled);
  // One fused group of 8 convolutions does not fit; the memory fallback cuts it per layer.
  EXPECT_EQ(s["groups"].size(), 8u);
  expect_same_groups(s, summary_of(reference));
  const auto c = backend_count(bundled, kContractions);
  EXPECT_EQ(c.model, c.total);
}

TEST(PrecisionExamples, Bf16BlocksAreCostedByThePerCoreModel) {
  for (const char* f : {"swiglu_1_16_32.onnx", "attention_pytorch.onnx", "attention_jax.onnx"}) {
    const auto dir = run_example(fs::path(f).stem().string(), std::string("--workload ") + kInputs + "/workload/" + f);
    const auto s = summary_of(dir);
    EXPECT_GT(s["total_latency"].get<long long>(), 0) << f;
    const auto c = backend_count(dir, kContractions);
    EXPECT_GT(c.total, 0u) << f;
    EXPECT_EQ(c.model, c.total) << f;
  }
}
