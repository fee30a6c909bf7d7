// Resize and Upsample: the loop split o = p*Q + r on each resized axis, and the source window
// w (offset c, width W) derived by hand from the ONNX coordinate formulas (parsers_resize.cpp).
// Dims: one per axis (the period Q on a resized axis), then per resized axis its phase r and
// window w.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// X [1, 3, 4, 4] resized to `out` through a constant sizes input (opset 13 unless given).
ModelBuilder resize_by_sizes(const Shape& out, const std::string& mode, const std::string& coordinates,
                             const std::string& nearest = "", std::int64_t opset = 13) {
  ModelBuilder m("g", opset);
  m.input("X", F32, {1, 3, 4, 4}).int_initializer("sizes", out).output("Y", F32);
  auto n = m.node("Resize", {"X", "", "", "sizes"}, {"Y"}, "up").attr("mode", mode).attr("coordinate_transformation_mode", coordinates);
  if (!nearest.empty()) n.attr("nearest_mode", nearest);
  return m;
}

TEST(Resize, NearestAsymmetricFloorTimesTwoIsAPlainReadOfThePeriod) {
  // PyTorch's nn.Upsample(scale_factor=2, mode="nearest"): x_orig = o/2, floor: o = 2Q + r reads
  // Q for both phases, so no window: x[Q], y[2Q + r].
  auto w = parse(resize_by_sizes({1, 3, 8, 8}, "nearest", "asymmetric", "floor"));
  const auto& n = node(w, "up");
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 3, 8, 8}));
  EXPECT_EQ(map_of(n, 0), "(d0, d1, d2, d3)");
  EXPECT_EQ(map_of(n, 1), "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 4, 4, 2, 2}));
  EXPECT_EQ(kinds(n), "PPPPPP");
}

TEST(Resize, LinearHalfPixelTimesTwoReadsAThreeWideWindowFromMinusOne) {
  // x_orig = (o + 0.5)/2 - 0.5: phase 0 reads {Q-1, Q} (Q - 0.25), phase 1 {Q, Q+1} (Q + 0.25);
  // the union relative to Q is [-1, 1]: x[Q + w - 1], W = 3, a reduction loop.
  for (const char* mode : {"half_pixel", "pytorch_half_pixel", "half_pixel_symmetric"}) {
    auto w = parse(resize_by_sizes({1, 3, 8, 8}, "linear", mode, "", 18));
    const auto& n = node(w, "up");
    EXPECT_EQ(map_of(n, 0), "(d0, d1, ((d2 + d5) + -1), ((d3 + d7) + -1))") << mode;
    EXPECT_EQ(map_of(n, 1), "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d6))") << mode;
    EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 4, 4, 2, 3, 2, 3})) << mode;
    EXPECT_EQ(kinds(n), "PPPPPRPR") << mode;
  }
}

TEST(Resize, LinearAsymmetricTimesTwoReadsATwoWideWindow) {
  // x_orig = o/2: phase 0 reads {Q} exactly, phase 1 {Q, Q+1}: offsets [0, 1], W = 2.
  auto w = parse(resize_by_sizes({1, 3, 8, 8}, "linear", "asymmetric"));
  const auto& n = node(w, "up");
  EXPECT_EQ(map_of(n, 0), "(d0, d1, (d2 + d5), (d3 + d7))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 4, 4, 2, 2, 2, 2}));
}

TEST(Resize, AlignCornersBoundsEveryOutputsReads) {
  // x_orig = o*3/7 for o = 0..7: 0, .43, .86, 1.29, 1.71, 2.14, 2.57, 3, floors 0,0,0,1,1,2,2,3;
  // relative to Q = floor(o/2) = 0,0,1,1,2,2,3,3 the reads span [-1, 1] (o = 2 reads 0 and 1).
  auto w = parse(resize_by_sizes({1, 3, 8, 8}, "linear", "align_corners"));
  const auto& n = node(w, "up");
  EXPECT_EQ(map_of(n, 0), "(d0, d1, ((d2 + d5) + -1), ((d3 + d7) + -1))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 4, 4, 2, 3, 2, 3}));
}

TEST(Resize, DownsamplingByTwoIsAStridedWindowOfOne) {
  // 4 -> 2, nearest asymmetric floor: x_orig = 2o, read 2o: x[2Q + w] with W = 1, like a 1x1
  // stride-2 convolution; the output is indexed by Q alone.
  auto w = parse(resize_by_sizes({1, 3, 2, 2}, "nearest", "asymmetric", "floor"));
  const auto& n = node(w, "up");
  EXPECT_EQ(map_of(n, 0), "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))");
  EXPECT_EQ(map_of(n, 1), "(d0, d1, d2, d3)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 2, 2, 1, 1}));
  EXPECT_EQ(kinds(n), "PPPPRR");
}

TEST(Resize, RationalRatioSplitsIntoPeriodsOfThreeOutputsAndTwoInputs) {
  // Last axis 4 -> 6 = 3/2 (two periods): x_orig = 2o/3 = 0, .67, 1.33, 2, 2.67, 3.33, floors
  // 0, 0, 1, 2, 2, 3; relative to 2*floor(o/3) = 0,0,0,2,2,2 the offsets are 0,0,1,0,0,1: W = 2.
  ModelBuilder m("g", 13);
  m.input("X", F32, {1, 1, 1, 4}).int_initializer("sizes", {1, 1, 1, 6}).output("Y", F32);
  m.node("Resize", {"X", "", "", "sizes"}, {"Y"}, "up").attr("mode", "nearest").attr("coordinate_transformation_mode", "asymmetric").attr("nearest_mode", "floor");
  auto w = parse(m);
  const auto& n = node(w, "up");
  EXPECT_EQ(map_of(n, 0), "(d0, d1, d2, ((d3 * 2) + d5))");
  EXPECT_EQ(map_of(n, 1), "(d0, d1, d2, ((d3 * 3) + d4))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 1, 1, 2, 3, 2}));
}

TEST(Resize, NearestRoundingModesPickTheNeighbours) {
  // Times 3, asymmetric: x_orig = Q + r/3 (r = 0, 1, 2). round_prefer_floor reads Q, Q, Q+1
  // (offsets [0, 1], W = 2); floor reads Q always (no window); ceil reads Q, Q+1, Q+1 (W = 2).
  auto w = parse(resize_by_sizes({1, 3, 12, 12}, "nearest", "asymmetric", "round_prefer_floor"));
  EXPECT_EQ(map_of(node(w, "up"), 0), "(d0, d1, (d2 + d5), (d3 + d7))");
  w = parse(resize_by_sizes({1, 3, 12, 12}, "nearest", "asymmetric", "floor"));
  EXPECT_EQ(map_of(node(w, "up"), 0), "(d0, d1, d2, d3)");
  EXPECT_EQ(map_of(node(w, "up"), 1), "(d0, d1, ((d2 * 3) + d4), ((d3 * 3) + d5))");
  w = parse(resize_by_sizes({1, 3, 12, 12}, "nearest", "asymmetric", "ceil"));
  EXPECT_EQ(sizes(node(w, "up")), (std::vector<std::int64_t>{1, 3, 4, 4, 3, 2, 3, 2}));
}

TEST(Resize, Opset10ScalesAreAsymmetricWithATruncatingNearestRead) {
  // Resize-10 (X, scales): asymmetric coordinates; nearest truncates when upsampling (as x[Q]),
  // linear reads {Q} and {Q, Q+1}: W = 2.
  for (const char* mode : {"nearest", "linear"}) {
    ModelBuilder m("g", 10);
    m.input("X", F32, {1, 3, 4, 4}).initializer("scales", F32, {4}).output("Y", F32, {1, 3, 8, 8}, true);
    m.node("Resize", {"X", "scales"}, {"Y"}, "up").attr("mode", mode);
    auto w = parse(m);
    const auto& n = node(w, "up");
    EXPECT_EQ(map_of(n, 0), std::string(mode) == "nearest" ? "(d0, d1, d2, d3)" : "(d0, d1, (d2 + d5), (d3 + d7))") << mode;
    EXPECT_EQ(map_of(n, 1), std::string(mode) == "nearest" ? "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))"
                                                           : "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d6))") << mode;
  }
}

TEST(Resize, Opset11ScalesInputAndOpset18AxesGiveTheSameNode) {
  ModelBuilder a("g", 11);
  a.input("X", F32, {1, 3, 4, 4}).initializer("roi", F32, {0}).initializer("scales", F32, {4}).output("Y", F32, {1, 3, 8, 8}, true);
  a.node("Resize", {"X", "roi", "scales"}, {"Y"}, "up").attr("mode", "nearest").attr("coordinate_transformation_mode", "asymmetric").attr("nearest_mode", "floor");
  ModelBuilder b("g", 18);
  // (The ONNX 1.12 shape inference knows Resize only up to opset 13: the shape is declared.)
  b.input("X", F32, {1, 3, 4, 4}).int_initializer("sizes", {8, 8}).output("Y", F32, {1, 3, 8, 8}, true);
  b.node("Resize", {"X", "", "", "sizes"}, {"Y"}, "up").attr("mode", "nearest").attr("coordinate_transformation_mode", "asymmetric")
      .attr("nearest_mode", "floor").attr("axes", Shape{2, 3});
  auto wa = parse(a);
  auto wb = parse(b);
  EXPECT_EQ(map_of(node(wa, "up"), 1), "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))");
  EXPECT_EQ(map_of(node(wb, "up"), 1), map_of(node(wa, "up"), 1));
  EXPECT_EQ(node(wb, "up").outputs[0]->shape, (std::vector<std::int64_t>{1, 3, 8, 8}));
}

TEST(Upsample, Opset9ScalesInputAndOpset7AttributeAreNearestFloor) {
  ModelBuilder a("g", 9);
  a.input("X", F32, {1, 3, 4, 4}).initializer("scales", F32, {4}).output("Y", F32, {1, 3, 8, 8}, true);
  a.node("Upsample", {"X", "scales"}, {"Y"}, "up").attr("mode", "nearest");
  ModelBuilder b("g", 7);
  b.input("X", F32, {1, 3, 4, 4}).output("Y", F32, {1, 3, 8, 8}, true);
  auto* attr = b.node("Upsample", {"X"}, {"Y"}, "up").attr("mode", "nearest").proto().add_attribute();
  attr->set_name("scales");
  attr->set_type(onnx::AttributeProto_AttributeType_FLOATS);
  for (float s : {1.0F, 1.0F, 2.0F, 2.0F}) attr->add_floats(s);
  for (const auto* m : {&a, &b}) {
    auto w = parse(*m);
    const auto& n = node(w, "up");
    EXPECT_EQ(n.type, "Upsample");
    EXPECT_EQ(map_of(n, 0), "(d0, d1, d2, d3)");
    EXPECT_EQ(map_of(n, 1), "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))");
  }
}

TEST(Resize, BadAttributesNameTheNode) {
  expect_error([] { parse(resize_by_sizes({1, 3, 8, 8}, "bicubic", "asymmetric")); }, {"up", "unknown mode 'bicubic'"});
  expect_error([] { parse(resize_by_sizes({1, 3, 8, 8}, "nearest", "corners")); },
               {"up", "unknown coordinate_transformation_mode 'corners'"});
  expect_error([] { parse(resize_by_sizes({1, 3, 8, 8}, "nearest", "asymmetric", "nearest")); }, {"up", "unknown nearest_mode 'nearest'"});
  expect_error([] { parse(resize_by_sizes({1, 3, 8, 8}, "linear", "tf_crop_and_resize")); }, {"up", "tf_crop_and_resize"});
  ModelBuilder both("g", 13);
  both.input("X", F32, {1, 3, 4, 4}).initializer("scales", F32, {4}).int_initializer("sizes", {1, 3, 8, 8}).output("Y", F32, {1, 3, 8, 8}, true);
  both.node("Resize", {"X", "", "scales", "sizes"}, {"Y"}, "up");
  expect_error([&] { parse(both); }, {"up", "exactly one of scales and sizes"});
}

// A declared output of 2^40 positions on one axis (scales not a constant, so nothing checks the
// declaration first) is refused instead of walked position by position (a hang before).
TEST(Resize, AnAbsurdOutputExtentIsAnErrorNotAHang) {
  ModelBuilder m("g", 13);
  m.input("X", F32, {1, 1, 2, 2}).input("scales", F32, {4}).output("Y", F32, {1, 1, 4, std::int64_t{1} << 40}, true);
  m.node("Resize", {"X", "", "scales"}, {"Y"}, "up");
  expect_error([&] { parse(m); }, {"up", "resizes to 1099511627776 positions, more than 16777216 on one axis"});
}

TEST(Upsample, ScalesBelowOneAreRejected) {
  ModelBuilder m("g", 7);
  m.input("X", F32, {1, 3, 4, 4}).output("Y", F32, {1, 3, 2, 2}, true);
  auto* attr = m.node("Upsample", {"X"}, {"Y"}, "up").proto().add_attribute();
  attr->set_name("scales");
  attr->set_type(onnx::AttributeProto_AttributeType_FLOATS);
  for (float s : {1.0F, 1.0F, 0.5F, 0.5F}) attr->add_floats(s);
  expect_error([&] { parse(m); }, {"up", "Upsample scales must be >= 1"});
}

}  // namespace
