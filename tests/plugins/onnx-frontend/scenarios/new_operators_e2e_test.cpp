// `stream run` on small models of the new operator families, on the TPU-like quad core with
// automatic mapping: an LSTM, an int8 QLinearConv network and an attention block with an
// Equal/Where mask. Each must map end to end; the per-core cost of the contractions (the LSTM's
// gate products, the integer convolutions, the attention MatMuls) must come from the cost model
// (backend zigzag), not from the ideal-cycle fallback.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <string>

#include "model_builder.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using namespace stream::onnx_testing;

namespace {

struct RunResult {
  int code = -1;
  std::string out;
  double latency = 0;
  std::map<std::string, std::string> backend;  // node -> backend of its first core entry
};

RunResult run_model(const ModelBuilder& m, const std::string& name) {
  const auto model = m.save_temp("new_ops_e2e_" + name + ".onnx");
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "new_ops_e2e" / name;
  fs::remove_all(out);
  RunResult r;
  auto cli = stream::test::run_stream("run --workload " + model.string() + " --hardware " + std::string(STREAM_INPUTS_DIR) +
                                      "/hardware/tpu_like_quad_core.yaml --out " + out.string() + " --experiment-id e");
  r.code = cli.code;
  r.out = cli.out;
  if (r.code != 0) return r;
  r.latency = YAML::LoadFile((out / "e" / "summary.yaml").string())["total_latency"].as<double>();
  for (const auto& g : fs::directory_iterator(out / "e")) {
    const auto lut = g.path() / "core_cost_lut.yaml";
    if (!fs::exists(lut)) continue;
    for (const auto& n : YAML::LoadFile(lut.string())["nodes"])
      r.backend[n["name"].as<std::string>()] = n["cores"][0]["metadata"]["backend"].as<std::string>();
  }
  return r;
}

// seq 8, batch 1, input 16, hidden 16: W [1, 64, 16], R [1, 64, 16], in bf16.
TEST(NewOperatorsEndToEnd, LstmMapsWithItsGateProductsCosted) {
  ModelBuilder m("lstm");
  m.input("X", BF16, {8, 1, 16}).initializer("W", BF16, {1, 64, 16}).initializer("R", BF16, {1, 64, 16});
  m.output("Y", BF16).output("Y_h", BF16).output("Y_c", BF16);
  m.node("LSTM", {"X", "W", "R"}, {"Y", "Y_h", "Y_c"}, "lstm").attr("hidden_size", 16);
  const auto r = run_model(m, "lstm");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_GT(r.latency, 0);
  ASSERT_TRUE(r.backend.count("lstm_x_gates")) << r.out;
  EXPECT_EQ(r.backend.at("lstm_x_gates"), "zigzag");
  EXPECT_EQ(r.backend.at("lstm_h_gates"), "zigzag");
}

// Two int8 3x3 convolutions (uint8 activations, int8 weights) as the zoo's *-int8 models have them.
TEST(NewOperatorsEndToEnd, QLinearConvNetworkMapsWithCostedConvs) {
  ModelBuilder m("qconv");
  m.input("x", U8, {1, 16, 16, 16}).initializer("w1", I8, {16, 16, 3, 3}).initializer("w2", I8, {16, 16, 3, 3});
  m.initializer("s", F32, {}).initializer("zp_u", U8, {}).initializer("zp_i", I8, {});
  m.output("y", U8);
  m.node("QLinearConv", {"x", "s", "zp_u", "w1", "s", "zp_i", "s", "zp_u"}, {"h"}, "qconv1")
      .attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("QLinearConv", {"h", "s", "zp_u", "w2", "s", "zp_i", "s", "zp_u"}, {"y"}, "qconv2")
      .attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  const auto r = run_model(m, "qconv");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_GT(r.latency, 0);
  ASSERT_TRUE(r.backend.count("qconv1")) << r.out;
  EXPECT_EQ(r.backend.at("qconv1"), "zigzag");
  EXPECT_EQ(r.backend.at("qconv2"), "zigzag");
}

// One attention head block over 4 heads, seq 16, d 8: scores = q·k^T, masked where mask == 0,
// softmax, then ·v; bf16.
TEST(NewOperatorsEndToEnd, AttentionMaskWithEqualAndWhereMaps) {
  ModelBuilder m("attn_mask");
  m.input("q", BF16, {1, 4, 16, 8}).input("kT", BF16, {1, 4, 8, 16}).input("v", BF16, {1, 4, 16, 8});
  m.input("mask", BF16, {1, 1, 16, 16}).initializer("zero", BF16, {}).initializer("neg_inf", BF16, {});
  m.output("o", BF16);
  m.node("MatMul", {"q", "kT"}, {"scores"}, "qk");
  m.node("Equal", {"mask", "zero"}, {"is_pad"}, "eq");
  m.node("Where", {"is_pad", "neg_inf", "scores"}, {"masked"}, "where");
  m.node("Softmax", {"masked"}, {"p"}, "softmax").attr("axis", -1);
  m.node("MatMul", {"p", "v"}, {"o"}, "pv");
  const auto r = run_model(m, "attn_mask");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_GT(r.latency, 0);
  ASSERT_TRUE(r.backend.count("qk")) << r.out;
  EXPECT_EQ(r.backend.at("qk"), "zigzag");
  EXPECT_EQ(r.backend.at("pv"), "zigzag");
  EXPECT_TRUE(r.backend.count("where"));
  EXPECT_TRUE(r.backend.count("eq"));
}

}  // namespace
