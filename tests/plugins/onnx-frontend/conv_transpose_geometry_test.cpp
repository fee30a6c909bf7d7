// ConvTranspose's extents from its attributes (conv_transpose_geometry.cpp), through the parser:
// the output shape ONNX's shape inference gives, where the output sits in the scatter (the crop's
// offset, none when the scatter is written in place), and the errors naming the node. MACs are
// the real count N * C * prod(in) * prod(k) * K/G whatever the padding.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

using Ints = std::vector<std::int64_t>;

Ints y_shape(const Workload& w) { return graph_output_shape(w, "Y"); }

TEST(ConvTransposeGeometry, AutoPadSplitsThePaddingAsOnnx) {
  // in 3, k 3, s 2: scatter = full = 7; SAME pads a total of k - s = 1 (ONNX's shape inference):
  // SAME_UPPER at the end (output [0, 6)), SAME_LOWER at the begin ([1, 7)); VALID keeps all 7.
  // MACs: in 3*3 * k 3*3 = 81 each (the zero-inserted convolution: 6*6*9 = 324).
  for (const auto& [auto_pad, out, offset] : {std::tuple{"SAME_UPPER", 6, 0}, {"SAME_LOWER", 6, 1}, {"VALID", 7, -1}}) {
    ModelBuilder m("g");
    m.input("X", F32, {1, 1, 3, 3}).initializer("W", F32, {1, 1, 3, 3}).output("Y", F32);
    m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{2, 2}).attr("auto_pad", auto_pad);
    auto w = parse(m);
    EXPECT_EQ(y_shape(w), (Ints{1, 1, out, out})) << auto_pad;
    EXPECT_EQ(total_macs(w), 81) << auto_pad;
    if (offset < 0) {
      EXPECT_EQ(computations(w).size(), 1u) << auto_pad;
    } else {
      EXPECT_EQ(map_of(node(w, "ct_crop"), 0), offset == 0 ? "(d0, d1, d2, d3)" : "(d0, d1, (d2 + 1), (d3 + 1))") << auto_pad;
    }
  }
}

TEST(ConvTransposeGeometry, SameFollowsOnnxShapeInference) {
  // ONNX's shape inference pads SAME by max(0, span - s), ignoring output_padding and the spec's
  // out = in*s. in 3, k 2, s 3: no padding, out = the scatter 3*2 + 2 = 8 (not 9), written
  // directly. in 3, k 3, s 2, output_padding 1, SAME_UPPER: pads (0, 1), out = 7 + 1 - 1 = 7, the
  // scatter 7 written directly. MACs: in 3 * k 2 = 6; in 3 * k 3 = 9.
  for (const auto* auto_pad : {"SAME_UPPER", "SAME_LOWER"}) {
    ModelBuilder m("g");
    m.input("X", F32, {1, 1, 3}).initializer("W", F32, {1, 1, 2}).output("Y", F32);
    m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{3}).attr("auto_pad", auto_pad);
    auto w = parse(m);
    EXPECT_EQ(y_shape(w), (Ints{1, 1, 8})) << auto_pad;
    EXPECT_EQ(computations(w).size(), 1u) << auto_pad;
    EXPECT_EQ(total_macs(w), 6) << auto_pad;
  }
  ModelBuilder m("g");
  m.input("X", F32, {1, 1, 3}).initializer("W", F32, {1, 1, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{2}).attr("auto_pad", "SAME_UPPER")
      .attr("output_padding", Shape{1});
  auto w = parse(m);
  EXPECT_EQ(y_shape(w), (Ints{1, 1, 7}));
  EXPECT_EQ(computations(w).size(), 1u);
  EXPECT_EQ(total_macs(w), 9);
}

TEST(ConvTransposeGeometry, OutputShapeOnePastTheScatterShiftsNothing) {
  // in 3, k 3, s 3 (ONNX's test_convtranspose_output_shape, H): scatter = full = 9, output_shape
  // 10: total padding -1, begin -1 - (-1 // 2) = 0, end -1: the scatter in place, the last
  // element the bias. SAME_UPPER: begin -1 // 2 = -1: y[o] = z[o - 1]. MACs: in 3 * k 3 = 9.
  for (const auto* auto_pad : {"NOTSET", "SAME_UPPER"}) {
    ModelBuilder m("g");
    m.input("X", F32, {1, 1, 3}).initializer("W", F32, {1, 1, 3}).output("Y", F32);
    m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{3}).attr("output_shape", Shape{10})
        .attr("auto_pad", auto_pad);
    auto w = parse(m);
    EXPECT_EQ(y_shape(w), (Ints{1, 1, 10})) << auto_pad;
    EXPECT_EQ(total_macs(w), 9) << auto_pad;
    if (std::string(auto_pad) == "SAME_UPPER") {
      EXPECT_EQ(map_of(node(w, "ct_crop"), 0), "(d0, d1, (d2 + -1))");
    } else {
      EXPECT_EQ(computations(w).size(), 1u);
    }
  }
}

TEST(ConvTransposeGeometry, OutputShapeSetsThePads) {
  // in 4, k 3, s 2: scatter = full = 9. output_shape (7, 8): H total 2 -> begin 1, end 1; W total
  // 1 -> begin 1 - 1 // 2 = 1, end 0. Given pads are ignored. MACs: in 4*4 * k 3*3 = 144.
  ModelBuilder m("g");
  m.input("X", F32, {1, 1, 4, 4}).initializer("W", F32, {1, 1, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{2, 2}).attr("output_shape", Shape{7, 8})
      .attr("pads", Shape{3, 3, 3, 3});
  auto w = parse(m);
  EXPECT_EQ(y_shape(w), (Ints{1, 1, 7, 8}));
  EXPECT_EQ(map_of(node(w, "ct_crop"), 0), "(d0, d1, (d2 + 1), (d3 + 1))");
  EXPECT_EQ(total_macs(w), 144);
}

TEST(ConvTransposeGeometry, BadAttributesNameTheNode) {
  auto model = [](const std::string& key, const Shape& value) {
    ModelBuilder m("g");
    m.input("X", F32, {1, 2, 4, 4}).initializer("W", F32, {2, 2, 3, 3}).output("Y", F32);
    m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr(key, value);
    return m;
  };
  // Negative strides and pads are refused before shape inference (model_checks.cpp), as Conv's.
  expect_error([&] { parse(model("strides", {-1, 2})); }, {"'ct'", "attribute 'strides'", "has -1", "at least 1"});
  expect_error([&] { parse(model("strides", {2})); }, {"ct", "strides has 1 values"});
  expect_error([&] { parse(model("pads", {1, 1})); }, {"ct", "pads has 2 values; expected 4"});
  expect_error([&] { parse(model("pads", {-1, 0, 0, 0})); }, {"'ct'", "attribute 'pads'", "has -1", "at least 0"});
  expect_error([&] { parse(model("pads", {4, 0, 3, 0})); }, {"ct", "leave no output"});
  expect_error([&] { parse(model("output_padding", {1, 1})); }, {"ct", "output_padding 1 must be smaller"});
  expect_error([&] { parse(model("output_shape", {30, 30})); }, {"ct", "output_shape 30 exceeds"});
  expect_error([&] { parse(model("output_shape", {0, 6})); }, {"ct", "output_shape must be >= 1"});
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 4, 4}).initializer("W", F32, {3, 2, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("auto_pad", "SAME");
  expect_error([&] { parse(m); }, {"ct", "does not fit input channels"});
}

}  // namespace
