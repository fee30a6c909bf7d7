// The map forms the new parsers produce, through the per-core cost model of the TPU-like core
// (the tile the pipeline hands it, cost::core_tile), and `stream run` end to end on the
// TPU-like quad core for models that use Resize, ConvTranspose, DepthToSpace and a grouped
// convolution. bf16 tensors: the core's memories hold the operands at 16 bits (at 32 bits the
// model falls back for reasons unrelated to the maps).
#include <stream/cost/core_model.hpp>
#include <stream/cost/cost_model.hpp>
#include <stream/hardware/core_reader.hpp>
#include <stream/cost/estimate_costs.hpp>

#include <filesystem>
#include <functional>

#include "../onnx_test_util.hpp"
#include "stream_cli.hpp"

using namespace onnx_test;

namespace {

namespace fs = std::filesystem;

const cost::CoreModel& tpu_core() {
  static const auto core = cost::CoreModel::from_core(
      hardware::load_core_file(fs::path(STREAM_INPUTS_DIR) / "hardware" / "cores" / "tpu_like.yaml"));
  return core;
}

// The per-core cost of node `name` over its whole (untiled) iteration space.
cost::CoreCost core_cost(const Workload& w, const std::string& name) {
  tiling::TiledGroup tg;
  tg.workload = w;
  tg.mapping.resize(w.size());
  return cost::estimate(cost::core_tile(tg, w.index_of(name)), tpu_core());
}

// conv 3x3 (16 -> 16, pad 1) -> op -> conv 3x3, all bf16, on a 14x14 map.
ModelBuilder conv_op_conv(const std::function<void(ModelBuilder&)>& op, const Shape& mid_channels_shape) {
  ModelBuilder m("g");
  m.input("X", BF16, {1, 16, 14, 14}).initializer("W1", BF16, {16, 16, 3, 3});
  m.initializer("W2", BF16, {16, mid_channels_shape[1], 3, 3}).output("Y", BF16);
  m.node("Conv", {"X", "W1"}, {"A"}, "conv1").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  op(m);
  m.node("Conv", {"B", "W2"}, {"Y"}, "conv2").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  return m;
}

ModelBuilder resize_model(const std::string& mode, const std::string& coordinates) {
  return conv_op_conv(
      [&](ModelBuilder& m) {
        m.int_initializer("sizes", {1, 16, 28, 28});
        m.node("Resize", {"A", "", "", "sizes"}, {"B"}, "up").attr("mode", mode).attr("coordinate_transformation_mode", coordinates)
            .attr("nearest_mode", "floor");
      },
      {1, 16});
}

ModelBuilder conv_transpose_model() {
  return conv_op_conv(
      [](ModelBuilder& m) {
        m.initializer("WT", BF16, {16, 8, 3, 3});
        m.node("ConvTranspose", {"A", "WT"}, {"B"}, "up").attr("strides", Shape{2, 2}).attr("pads", Shape{1, 1, 1, 1})
            .attr("output_padding", Shape{1, 1});
      },
      {1, 8});
}

ModelBuilder depth_to_space_model() {
  return conv_op_conv([](ModelBuilder& m) { m.node("DepthToSpace", {"A"}, {"B"}, "d2s").attr("blocksize", 2); }, {1, 4});
}

// A RegNet-Y-like block: 1x1 (48 -> 104), Relu, grouped 3x3 stride 2 (13 groups of 8), Relu,
// 1x1 (104 -> 104), plus a strided 1x1 projection of the input, Relu.
ModelBuilder regnet_stage() {
  ModelBuilder m("g");
  m.input("X", BF16, {1, 48, 28, 28}).initializer("Wa", BF16, {104, 48, 1, 1}).initializer("Wb", BF16, {104, 8, 3, 3});
  m.initializer("Wc", BF16, {104, 104, 1, 1}).initializer("Wp", BF16, {104, 48, 1, 1}).output("Y", BF16);
  m.node("Conv", {"X", "Wa"}, {"a"}, "a").attr("kernel_shape", Shape{1, 1});
  m.node("Relu", {"a"}, {"ar"}, "a_relu");
  m.node("Conv", {"ar", "Wb"}, {"b"}, "b").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1})
      .attr("strides", Shape{2, 2}).attr("group", 13);
  m.node("Relu", {"b"}, {"br"}, "b_relu");
  m.node("Conv", {"br", "Wc"}, {"c"}, "c").attr("kernel_shape", Shape{1, 1});
  m.node("Conv", {"X", "Wp"}, {"p"}, "proj").attr("kernel_shape", Shape{1, 1}).attr("strides", Shape{2, 2});
  m.node("Add", {"c", "p"}, {"s"}, "add");
  m.node("Relu", {"s"}, {"Y"}, "out_relu");
  return m;
}

TEST(NewOpsCost, ConvolutionFormsAreCostedByTheZigzagModel) {
  // ConvTranspose's scatter (x[i], y[2i + f]) and the grouped convolution: every axis is bare or
  // a window.
  auto ct = parse(conv_transpose_model());
  const auto c = core_cost(ct, "up");
  EXPECT_EQ(c.status, cost::CostStatus::Ok) << c.reason;
  EXPECT_GT(c.latency_total, 0);
  auto rg = parse(regnet_stage());
  const auto g = core_cost(rg, "b");
  EXPECT_EQ(g.status, cost::CostStatus::Ok) << g.reason;
}

TEST(NewOpsCost, DataMovementFormsAreDescribableAndFallBackOnlyForTheMissingSecondInput) {
  // Resize's y[2Q + r] / x[Q + w - 1], ConvTranspose's crop z[o + 1] and Tile's y[I*t + i] are forms
  // the model describes (no StreamError); on the TPU-like core a one-input node leaves the I2
  // memory operand unlinked, which falls back as it does for every elementwise node (a Relu).
  auto near = parse(resize_model("nearest", "asymmetric"));
  auto lin = parse(resize_model("linear", "half_pixel"));
  auto ct = parse(conv_transpose_model());
  ModelBuilder t("g");
  t.input("X", BF16, {4, 16}).int_initializer("reps", {3, 1}).output("Y", BF16);
  t.node("Tile", {"X", "reps"}, {"Y"}, "tile");
  auto tile = parse(t);
  ModelBuilder r("g");
  r.input("X", BF16, {4, 16}).output("Y", BF16);
  r.node("Relu", {"X"}, {"Y"}, "relu");
  auto relu = parse(r);
  for (auto [w, name] : {std::pair{&near, "up"}, {&lin, "up"}, {&ct, "up_crop"}, {&tile, "tile"}, {&relu, "relu"}}) {
    const auto c = core_cost(*w, name);
    EXPECT_EQ(c.status, cost::CostStatus::Fallback) << name << ": " << c.reason;
    EXPECT_EQ(c.reason, "KeyError: I2") << name;
  }
}

// `stream run` on the TPU-like quad core: exit 0, a positive latency, and every Conv and
// ConvTranspose (node, core) cost from the zigzag model.
void expect_runs_end_to_end(const ModelBuilder& m, const std::string& id, const std::vector<std::string>& convolutions) {
  const auto model = m.save_temp("new_ops_" + id + ".onnx");
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / ("new_ops_" + id);
  fs::remove_all(out);
  const auto r = stream::test::run_stream("run --workload " + model.string() + " --hardware " + STREAM_INPUTS_DIR +
                                          "/hardware/tpu_like_quad_core.yaml --out " + out.string() + " --experiment-id exp");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto summary = stream::test::read(out / "exp" / "summary.yaml");
  EXPECT_NE(summary.find("total_latency: "), std::string::npos) << summary;
  EXPECT_EQ(summary.find("total_latency: 0\n"), std::string::npos) << summary;
  std::string luts;
  for (const auto& e : fs::directory_iterator(out / "exp"))
    if (e.is_directory()) luts += stream::test::read(e.path() / "core_cost_lut.yaml");
  for (const auto& c : convolutions) {
    const auto at = luts.find("- name: " + c + "\n");
    ASSERT_NE(at, std::string::npos) << c << " not in the cost tables";
    const auto entry = luts.substr(at, luts.find("- name:", at + 1) - at);
    EXPECT_NE(entry.find("backend: zigzag"), std::string::npos) << entry;
    EXPECT_EQ(entry.find("ideal-cycle"), std::string::npos) << entry;
  }
}

TEST(NewOpsEndToEnd, ResizeNearestAndLinear) {
  expect_runs_end_to_end(resize_model("nearest", "asymmetric"), "resize_nearest", {"conv1", "conv2"});
  expect_runs_end_to_end(resize_model("linear", "pytorch_half_pixel"), "resize_linear", {"conv1", "conv2"});
}

TEST(NewOpsEndToEnd, ConvTranspose) { expect_runs_end_to_end(conv_transpose_model(), "conv_transpose", {"conv1", "up", "conv2"}); }

TEST(NewOpsEndToEnd, DepthToSpace) { expect_runs_end_to_end(depth_to_space_model(), "depth_to_space", {"conv1", "conv2"}); }

TEST(NewOpsEndToEnd, RegNetLikeStageWithThirteenGroups) {
  expect_runs_end_to_end(regnet_stage(), "regnet_stage", {"a", "b", "c", "proj"});
}

}  // namespace
