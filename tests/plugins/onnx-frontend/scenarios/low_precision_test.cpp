// FP8 and INT4 models through the frontend, the per-core model and `stream run`: each tensor is
// costed at its own width (8 and 4 bits), on the bundled TPU-like core, which declares no operand
// precision (a core runs any element type at the type's width; docs/cost-model.md, "Element
// types"). The hand-derived figure is the weights' trip from DRAM: the off-chip core (core 6 of
// tpu_like_quad_core, a 64-bit read port) reads every weight bit once, elements x width bits in
// ceil(bits / 64) reads.
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <stream/cost/core_model.hpp>
#include <stream/cost/cost_model.hpp>
#include <stream/cost/traffic_model.hpp>
#include <stream/hardware/core_reader.hpp>
#include <stream/cost/estimate_costs.hpp>

#include <filesystem>

#include "../onnx_test_util.hpp"
#include "stream_cli.hpp"

using namespace onnx_test;

namespace {

namespace fs = std::filesystem;

// Conv 3x3, 16 -> 16 channels, pad 1, on a 14x14 map, every tensor of element type `elem`.
ModelBuilder conv_model(int elem) {
  ModelBuilder m("g");
  m.input("X", elem, {1, 16, 14, 14}).initializer("W", elem, {16, 16, 3, 3}).output("Y", elem);
  m.node("Conv", {"X", "W"}, {"Y"}, "conv").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  return m;
}

// Weight-only quantization as exporters write it: f16 activations, weights stored in `weight_elem`
// and dequantized (per tensor) right before the MatMul. QDQ folding makes the MatMul read them.
ModelBuilder quantized_matmul(int weight_elem) {
  ModelBuilder m("g");
  m.input("X", F16, {16, 64}).initializer("Wq", weight_elem, {64, 64}).initializer("scale", F16, {}).output("Y", F16);
  m.node("DequantizeLinear", {"Wq", "scale"}, {"W"}, "dq");
  m.node("MatMul", {"X", "W"}, {"Y"}, "mm");
  return m;
}

cost::CoreCost tpu_cost(const Workload& w, const std::string& name) {
  static const auto core = cost::CoreModel::from_core(
      hardware::load_core_file(fs::path(STREAM_INPUTS_DIR) / "hardware" / "cores" / "tpu_like.yaml"));
  tiling::TiledGroup tg;
  tg.workload = w;
  tg.mapping.resize(w.size());
  return cost::estimate(cost::core_tile(tg, w.index_of(name)), core);
}

struct DramRead {
  std::int64_t bits = -1, reads = -1;
};

// `stream run` on the TPU-like quad core; what the off-chip core reads of tensor `tensor`.
DramRead run_and_read_dram(const ModelBuilder& m, const std::string& id, const std::string& tensor) {
  const auto model = m.save_temp("low_precision_" + id + ".onnx");
  const auto out = stream::test::fresh_scratch_dir("onnx-frontend", "low_precision_" + id);
  const auto r = stream::test::run_stream("run --workload " + model.string() + " --hardware " + STREAM_INPUTS_DIR +
                                          "/hardware/tpu_like_quad_core.yaml --out " + out.string() +
                                          " --experiment-id exp");
  EXPECT_EQ(r.code, 0) << r.out;
  DramRead d;
  if (r.code != 0) return d;
  const auto accesses = YAML::LoadFile((out / "exp" / "group_0" / "memory_accesses.yaml").string());
  for (const auto& core : accesses["cores"]) {
    if (core["core_id"].as<int>() != 6) continue;
    for (const auto& t : core["transfers"])
      if (t["tensor"].as<std::string>() == tensor && t["role"].as<std::string>() == "source") {
        d.bits = t["bits_read"].as<std::int64_t>();
        d.reads = t["reads"].as<std::int64_t>();
      }
  }
  return d;
}

TEST(LowPrecision, Fp8ConvIsParsedAtEightBitsAndCostedByTheZigzagModel) {
  const auto w = parse(conv_model(F8E4M3FN));
  const auto& conv = node(w, "conv");
  for (const auto& t : conv.inputs) EXPECT_EQ(t->dtype, DType::f8e4m3fn) << t->name;
  EXPECT_EQ(conv.outputs[0]->dtype, DType::f8e4m3fn);
  EXPECT_EQ(conv.outputs[0]->shape, (std::vector<std::int64_t>{1, 16, 14, 14}));
  // The 16-bit output register (rf_2B) holds two 8-bit partial sums; at f32 no ordering fits.
  const auto c = tpu_cost(w, "conv");
  EXPECT_EQ(c.status, cost::CostStatus::Ok) << c.reason;
  EXPECT_EQ(tpu_cost(parse(conv_model(F32)), "conv").status, cost::CostStatus::Fallback);
}

TEST(LowPrecision, Fp8WeightsLeaveDramAtEightBitsEach) {
  // 16 x 16 x 3 x 3 = 2304 weights x 8 bits = 18432 bits, 18432 / 64 = 288 reads of the DRAM port.
  const auto d = run_and_read_dram(conv_model(F8E4M3FN), "fp8_conv", "W");
  EXPECT_EQ(d.bits, 18432);
  EXPECT_EQ(d.reads, 288);
}

TEST(LowPrecision, Int4WeightsAreReadByTheMatMulAtFourBits) {
  const auto w = parse(quantized_matmul(I4));
  const auto& mm = node(w, "mm");
  ASSERT_EQ(mm.inputs.size(), 2u);
  EXPECT_EQ(mm.inputs[1]->name, "Wq");
  EXPECT_EQ(mm.inputs[1]->dtype, DType::i4);
  // The weights' footprint: 64 x 64 x 4 = 16384 bits, half of the same weights in int8.
  EXPECT_EQ(mm.inputs[1]->size_bits(), 16384);
  EXPECT_EQ(node(parse(quantized_matmul(I8)), "mm").inputs[1]->size_bits(), 2 * 16384);
  const auto c = tpu_cost(w, "mm");
  EXPECT_EQ(c.status, cost::CostStatus::Ok) << c.reason;
}

TEST(LowPrecision, Int4WeightsMoveHalfTheBitsOfInt8) {
  // 4096 weights: int4 16384 bits in 256 reads of the 64-bit port; int8 32768 bits in 512.
  const auto i4 = run_and_read_dram(quantized_matmul(I4), "int4_matmul", "Wq");
  EXPECT_EQ(i4.bits, 16384);
  EXPECT_EQ(i4.reads, 256);
  const auto i8 = run_and_read_dram(quantized_matmul(I8), "int8_matmul", "Wq");
  EXPECT_EQ(i8.bits, 32768);
  EXPECT_EQ(i8.reads, 512);
}

TEST(LowPrecision, CastDeploysAFloatModelInFp8OrInt4) {
  // `--cast` re-types every wide float tensor: the f32 Conv's X, W and Y become f8e4m3fn or i4.
  const auto model = conv_model(F32).save_temp("low_precision_cast.onnx");
  for (const std::string to : {"f8e4m3fn", "i4"}) {
    const auto r = stream::test::run_stream("parse " + model.string() + " --cast " + to + " --format json",
                                            stream::test::Stderr::Discard);
    ASSERT_EQ(r.code, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    int operands = 0;
    for (const auto& n : j["nodes"])
      for (const auto& op : n["operands"]) {
        EXPECT_EQ(op["dtype"], to) << op["tensor"];
        ++operands;
      }
    EXPECT_EQ(operands, 6) << to;  // X, W and Y in the conv, X and W in-edges, Y out-edge
  }
}

TEST(LowPrecision, TheTrafficModelMovesInt4WeightsInHalfTheWords) {
  // Only the weights differ (X and Y stay f16). On tpu_like they go sram_2MB (read port:
  // bandwidth_min 64, max 2048, 416.16 pJ a word) -> rf_128B (8-bit ports, 0.095 pJ a read or a
  // write) -> array: int8, 32768 bits: 512 x 64 / 2048 = 16 sram words + 2 x 4096 rf words =
  // 16 x 416.16 + 8192 x 0.095 = 7436.8 pJ; int4, 16384 bits: 8 + 2 x 2048 words = 3718.4 pJ.
  const auto core = hardware::load_core_file(fs::path(STREAM_INPUTS_DIR) / "hardware" / "cores" / "tpu_like.yaml");
  auto traffic = [&](int weight_elem) {
    const auto w = parse(quantized_matmul(weight_elem));
    tiling::TiledGroup tg;
    tg.workload = w;
    tg.mapping.resize(w.size());
    return cost::traffic_cost(cost::core_tile(tg, w.index_of("mm")), core).memory_energy;
  };
  EXPECT_NEAR(traffic(I8) - traffic(I4), 7436.8 - 3718.4, 1e-6);
}

TEST(LowPrecision, ACoreDeclaringWiderInputsRunsFp8AtEightBits) {
  // tpu_v7_mxu declares operand_precision {input: bf16, accumulator: fp32}: the declaration
  // neither widens nor refuses narrower data. The FP8 Conv is costed by the zigzag model.
  const auto core = cost::CoreModel::from_core(hardware::load_core_file(
      fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs" / "hardware" / "cores" / "tpu_v7_mxu.yaml"));
  EXPECT_EQ(core.accumulator_bits, 32);
  const auto w = parse(conv_model(F8E4M3FN));
  tiling::TiledGroup tg;
  tg.workload = w;
  tg.mapping.resize(w.size());
  const auto tile = cost::core_tile(tg, w.index_of("conv"));
  for (const auto& op : tile.operands) EXPECT_EQ(op.precision_bits, 8) << op.role;
  const auto c = cost::estimate(tile, core);
  EXPECT_EQ(c.status, cost::CostStatus::Ok) << c.reason;
}

TEST(LowPrecision, Fp4AndUint4ActivationsAreModelledToo) {
  ModelBuilder m("g");
  m.input("X", F4E2M1, {4, 8}).input("Z", U4, {4, 8}).output("Y", F4E2M1).output("V", U4);
  m.node("Relu", {"X"}, {"Y"}, "relu");
  m.node("Neg", {"Z"}, {"V"}, "neg");
  const auto w = parse(m);
  EXPECT_EQ(node(w, "relu").outputs[0]->dtype, DType::f4e2m1);
  EXPECT_EQ(node(w, "relu").outputs[0]->size_bits(), 4 * 8 * 4);
  EXPECT_EQ(node(w, "neg").outputs[0]->dtype, DType::u4);
}

}  // namespace
