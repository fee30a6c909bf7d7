// Genuine PyTorch exporter output end to end (issue 11): every model of inputs/workload/exported/
// (torchvision classification and segmentation nets, transformer encoders and decoders, ViT,
// Swin, RNNs, a UNet, a sub-pixel super-resolution net; README.md there) maps with automatic
// mapping on the TPU-like quad core, in fp32 as exported and cast to bf16; cast, at least 99% of
// its Conv, Gemm and MatMul (node, core) costs are per-core model figures, not estimates.
// swin_op17's shifted-window mask is int64 arithmetic over constants, evaluated at load time; its
// masked scores reach the Softmax through a folded reshape (the Softmax reads them through a map
// that is not the identity), which the decomposition follows.
//
// Each run prints one line to stderr (model, groups, latency, share of model costs, wall time)
// that the closing note's table is made from.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "result_files.hpp"

namespace fs = std::filesystem;
using namespace stream::test;

namespace {

struct Model {
  std::string file;
  std::string options;  ///< e.g. --dim values for symbolic axes
};

const std::vector<Model> kModels = {
    {"resnet18_op13", ""}, {"resnet18_op17", ""}, {"resnet50_op17", ""}, {"mobilenet_v2_op13", ""},
    {"mobilenet_v2_op17", ""}, {"mobilenet_v3_small_op13", ""}, {"mobilenet_v3_small_op17", ""},
    {"densenet121_op13", ""}, {"inception_v3_op13", ""}, {"googlenet_op13", ""}, {"shufflenet_v2_x0_5_op17", ""},
    {"regnet_y_400mf_op13", ""}, {"efficientnet_b0_op17", ""}, {"squeezenet1_0_op13", ""}, {"vgg11_op13", ""},
    {"deeplabv3_mobilenet_v3_large_op13", ""}, {"lraspp_mobilenet_v3_large_op17", ""},
    {"transformer_encoder_op13", "--dim batch=1 --dim seq=16"}, {"transformer_encoder_op17", "--dim batch=1 --dim seq=16"},
    {"transformer_encoder_static_op17", ""}, {"transformer_decoder_op17", ""}, {"transformer_decoder_4l_op17", ""},
    {"gpt_kv_op13", ""}, {"gpt_kv_op17", ""},
    {"vit_op13", ""}, {"vit_op17", ""}, {"lstm_op13", ""}, {"gru_op13", ""}, {"unet_op13", ""},
    {"super_resolution_op13", ""}, {"swin_op17", ""},
};

const std::set<std::string> kContractions{"Conv", "Gemm", "MatMul"};

struct Outcome {
  int code = -1;
  std::string output;
  nlohmann::json summary;
  BackendCount contractions;
  double wall_s = 0;
};

Outcome map_model(const Model& m, const std::string& cast) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "exported" / (m.file + (cast.empty() ? "" : "_" + cast));
  fs::remove_all(out);
  const std::string args = "run --workload " + std::string(STREAM_INPUTS_DIR) + "/workload/exported/" + m.file +
                           ".onnx --hardware " + STREAM_INPUTS_DIR + "/hardware/tpu_like_quad_core.yaml " + m.options +
                           (cast.empty() ? "" : " --cast " + cast) + " --out " + out.string() + " --experiment-id exp";
  Outcome o;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_stream(args);
  o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  o.code = r.code;
  o.output = r.out;
  o.summary = summary_of(out / "exp");
  o.contractions = backend_count(out / "exp", kContractions);
  return o;
}

void expect_mapped(const Outcome& o, const std::string& what) {
  ASSERT_EQ(o.code, 0) << what << "\n" << o.output.substr(o.output.size() > 4000 ? o.output.size() - 4000 : 0);
  ASSERT_TRUE(o.summary.is_object()) << what;
  EXPECT_GT(o.summary["total_latency"].get<long long>(), 0) << what;
  for (const auto& [key, g] : o.summary["groups"].items()) EXPECT_EQ(g["status"], "OPTIMAL") << what << " " << key;
}

void report(const std::string& what, const Outcome& o) {
  std::fprintf(stderr, "[exported] %-40s groups %4zu  latency %14lld  model costs %4zu/%4zu (%.1f%%)  wall %.2f s\n",
               what.c_str(), o.summary["groups"].size(), o.summary["total_latency"].get<long long>(), o.contractions.model,
               o.contractions.total, 100.0 * o.contractions.share(), o.wall_s);
}

void PrintTo(const Model& m, std::ostream* os) { *os << m.file; }

class ExportedModel : public ::testing::TestWithParam<Model> {};

}  // namespace

TEST_P(ExportedModel, MapsInFp32AndCastToBf16WithPerCoreModelCosts) {
  const Model& m = GetParam();
  const Outcome fp32 = map_model(m, "");
  expect_mapped(fp32, m.file + " fp32");
  if (!HasFatalFailure()) report(m.file + " fp32", fp32);
  const Outcome bf16 = map_model(m, "bf16");
  expect_mapped(bf16, m.file + " bf16");
  if (HasFatalFailure()) return;
  report(m.file + " bf16", bf16);
  EXPECT_GT(bf16.summary["cast"]["tensors"].get<int>(), 0);
  EXPECT_GT(bf16.contractions.total, 0u) << m.file;
  EXPECT_GE(bf16.contractions.share(), 0.99) << m.file << ": " << bf16.contractions.model << " of "
                                              << bf16.contractions.total;
}

INSTANTIATE_TEST_SUITE_P(PyTorchExports, ExportedModel, ::testing::ValuesIn(kModels),
                         [](const ::testing::TestParamInfo<Model>& info) { return info.param.file; });
