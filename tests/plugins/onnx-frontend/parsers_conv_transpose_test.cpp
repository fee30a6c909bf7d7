// ConvTranspose: the ONNX output shape, the zero-insertion node for strides > 1, and the dense
// stride-1 convolution over it (parsers_conv_transpose.cpp). Conv dims as conv_layout:
// (b, ox, oy, fx, fy, c, k[, g]); ZeroInsert dims (b, c, i_h, i_w, r_h, r_w).
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(ConvTranspose, StrideTwoDecoderZeroInsertsThenConvolves) {
  // The usual decoder: k = 3, s = 2, pads 1, output_padding 1: out = 2*(4-1) + 1 + 3 - 2 = 8.
  // z = x with a zero after every element (extent 2*4 = 8); the convolution over z has begin
  // pad (3-1)*1 - 1 = 1. W is [C=8, K=4, 3, 3]: channel c first.
  ModelBuilder m("g");
  m.input("X", F32, {1, 8, 4, 4}).initializer("W", F32, {8, 4, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "up").attr("strides", Shape{2, 2}).attr("pads", Shape{1, 1, 1, 1})
      .attr("output_padding", Shape{1, 1}).attr("kernel_shape", Shape{3, 3});
  auto w = parse(m);
  const auto& z = node(w, "up_zero_insert");
  EXPECT_EQ(z.type, "ZeroInsert");
  EXPECT_EQ(z.outputs[0]->shape, (std::vector<std::int64_t>{1, 8, 8, 8}));
  EXPECT_EQ(map_of(z, 0), "(d0, d1, d2, d3)");
  EXPECT_EQ(map_of(z, 1), "(d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))");
  EXPECT_EQ(sizes(z), (std::vector<std::int64_t>{1, 8, 4, 4, 2, 2}));
  EXPECT_EQ(z.dim_names, (std::vector<std::string>{"b", "c", "i0", "i1", "r0", "r1"}));
  const auto& n = node(w, "up");
  EXPECT_EQ(n.type, "ConvTranspose");
  EXPECT_EQ(n.inputs[0]->name, z.outputs[0]->name);
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 4, 8, 8}));
  EXPECT_EQ(map_of(n, 0), "(d0, d5, ((d2 + d4) + -1), ((d1 + d3) + -1))");
  EXPECT_EQ(map_of(n, 1), "(d5, d6, d4, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d6, d2, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 8, 8, 3, 3, 8, 4}));
  EXPECT_EQ(kinds(n), "PPPRRRP");
}

TEST(ConvTranspose, OneDStrideOneReadsTheInputDirectly) {
  // k = 3, pads 1: out = 4 + 3 - 2 = 5; convolution pad (3-1) - 1 = 1; no ZeroInsert.
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 5}).initializer("W", F32, {2, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("pads", Shape{1, 1});
  auto w = parse(m);
  EXPECT_EQ(computations(w).size(), 1u);
  const auto& n = node(w, "ct");
  EXPECT_EQ(n.inputs[0]->name, "X");
  EXPECT_EQ(map_of(n, 0), "(d0, d3, ((d1 + d2) + -1))");
  EXPECT_EQ(map_of(n, 1), "(d3, d4, d2)");
  EXPECT_EQ(map_of(n, 2), "(d0, d4, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 5, 3, 2, 3}));
}

TEST(ConvTranspose, OutputShapeAndSameUpperSplitThePadding) {
  // s = 2, k = 3, in 3: full output 2*2 + 3 = 7. output_shape 6 -> total padding 1; NOTSET puts
  // the larger half at the begin (pad 1, conv pad 2 - 1 = 1); SAME_UPPER (out = 3*2 = 6) at the
  // end (pad 0, conv pad 2).
  for (const char* auto_pad : {"NOTSET", "SAME_UPPER"}) {
    ModelBuilder m("g");
    m.input("X", F32, {1, 1, 3, 3}).initializer("W", F32, {1, 1, 3, 3}).output("Y", F32);
    auto n = m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("strides", Shape{2, 2}).attr("auto_pad", auto_pad);
    if (std::string(auto_pad) == "NOTSET") n.attr("output_shape", Shape{6, 6});
    auto w = parse(m);
    const auto& c = node(w, "ct");
    EXPECT_EQ(c.outputs[0]->shape, (std::vector<std::int64_t>{1, 1, 6, 6})) << auto_pad;
    EXPECT_EQ(map_of(c, 0), std::string(auto_pad) == "NOTSET" ? "(d0, d5, ((d2 + d4) + -1), ((d1 + d3) + -1))"
                                                              : "(d0, d5, ((d2 + d4) + -2), ((d1 + d3) + -2))") << auto_pad;
  }
}

TEST(ConvTranspose, GroupsAndDilationsKeepTheGroupLoop) {
  // G = 2, C = 4 (2 per group), W [4, 3, 3, 3]: K = 6 (3 per group); d = 2, s = 1, no pads:
  // out = 4 + (3-1)*2 + 1 = 9; conv pad (3-1)*2 = 4. Channel axes split by group (the views fold
  // into the graph's tensors): X [1, 2, 2, 5, 5] at (b, g, c), W [2, 2, 3, 3, 3] at (g, c, k),
  // Y [1, 2, 3, 9, 9] at (b, g, k).
  ModelBuilder m("g");
  m.input("X", F32, {1, 4, 5, 5}).initializer("W", F32, {4, 3, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("group", 2).attr("dilations", Shape{2, 2});
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& n = node(w, "ct");
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 2, 3, 9, 9}));
  EXPECT_EQ(map_of(n, 0), "(d0, d7, d5, ((d2 + (d4 * 2)) + -4), ((d1 + (d3 * 2)) + -4))");
  EXPECT_EQ(map_of(n, 1), "(d7, d5, d6, d4, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d7, d6, d2, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 9, 9, 3, 3, 2, 3, 2}));
}

TEST(ConvTranspose, DepthwiseHasOneChannelPerGroup) {
  // G = C = K = 4: X channel g, W [g, k (extent 1)], Y g; c and k have extent 1.
  ModelBuilder m("g");
  m.input("X", F32, {1, 4, 4, 4}).initializer("W", F32, {4, 1, 2, 2}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("group", 4).attr("strides", Shape{2, 2});
  auto w = parse(m);
  const auto& n = node(w, "ct");
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 4, 8, 8}));  // 2*3 + 2 = 8
  EXPECT_EQ(map_of(n, 0), "(d0, d7, ((d2 + d4) + -1), ((d1 + d3) + -1))");
  EXPECT_EQ(map_of(n, 1), "(d7, d6, d4, d3)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 8, 8, 2, 2, 1, 1, 4}));
}

TEST(ConvTranspose, BadAttributesNameTheNode) {
  auto model = [](const std::string& key, const Shape& value) {
    ModelBuilder m("g");
    m.input("X", F32, {1, 2, 4, 4}).initializer("W", F32, {2, 2, 3, 3}).output("Y", F32);
    m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr(key, value);
    return m;
  };
  expect_error([&] { parse(model("strides", {-1, 2})); }, {"ct", "strides must be >= 1"});
  expect_error([&] { parse(model("strides", {2})); }, {"ct", "strides has 1 values"});
  expect_error([&] { parse(model("pads", {1, 1})); }, {"ct", "pads has 2 values; expected 4"});
  expect_error([&] { parse(model("pads", {-1, 0, 0, 0})); }, {"ct", "pads must be >= 0"});
  expect_error([&] { parse(model("output_padding", {1, 1})); }, {"ct", "output_padding 1 must be smaller"});
  expect_error([&] { parse(model("output_shape", {30, 30})); }, {"ct", "output_shape 30 exceeds"});
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 4, 4}).initializer("W", F32, {3, 2, 3, 3}).output("Y", F32);
  m.node("ConvTranspose", {"X", "W"}, {"Y"}, "ct").attr("auto_pad", "SAME");
  expect_error([&] { parse(m); }, {"ct", "does not fit input channels"});
}

}  // namespace
