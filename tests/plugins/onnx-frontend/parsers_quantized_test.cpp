// The integer operators of int8 models (parsers_quantized.cpp: QLinearConv, ConvInteger,
// QLinearMatMul, MatMulInteger), against hand-derived maps, loop sizes, element types and access
// classes.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// The scale/zero-point inputs of an int8 conv as the ONNX zoo's *-int8 models have them.
void qlinear_params(ModelBuilder& m, int x_type, int w_type, int y_type) {
  m.initializer("x_scale", F32, {}).initializer("x_zp", x_type, {});
  m.initializer("w_scale", F32, {}).initializer("w_zp", w_type, {});
  m.initializer("y_scale", F32, {}).initializer("y_zp", y_type, {});
}

// The same convolution as Conv.TwoDWithPadsMatchesTheReferenceMaps: 3x3, pads 1, strides 2 on
// [1,8,16,16] -> [1,4,8,8]; dims (b, ox, oy, fx, fy, c, k).
TEST(Quantized, QLinearConvIsTheIntegerConvWithoutItsScales) {
  ModelBuilder m("g");
  m.input("x", U8, {1, 8, 16, 16}).initializer("w", I8, {4, 8, 3, 3}).output("y", U8);
  qlinear_params(m, U8, I8, U8);
  m.node("QLinearConv", {"x", "x_scale", "x_zp", "w", "w_scale", "w_zp", "y_scale", "y_zp"}, {"y"}, "qconv")
      .attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1}).attr("strides", Shape{2, 2});
  auto w = parse(m);
  const auto& n = node(w, "qconv");
  EXPECT_EQ(n.type, "Conv");
  ASSERT_EQ(n.inputs.size(), 2u);
  EXPECT_EQ(map_of(n, 0), "(d0, d5, (((d2 * 2) + d4) + -1), (((d1 * 2) + d3) + -1))");
  EXPECT_EQ(map_of(n, 1), "(d6, d5, d4, d3)");
  EXPECT_EQ(map_of(n, 2), "(d0, d6, d2, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 8, 8, 3, 3, 8, 4}));
  EXPECT_EQ(n.inputs[0]->dtype, DType::u8);
  EXPECT_EQ(n.inputs[1]->dtype, DType::i8);
  EXPECT_EQ(n.outputs[0]->dtype, DType::u8);
  EXPECT_TRUE(has_in_edge(w, "w"));
  for (const char* p : {"x_scale", "x_zp", "w_scale", "w_zp", "y_scale", "y_zp"}) EXPECT_FALSE(has_in_edge(w, p)) << p;
}

TEST(Quantized, ConvIntegerWritesInt32) {
  ModelBuilder m("g");
  m.input("x", U8, {1, 2, 5, 5}).initializer("w", U8, {3, 2, 3, 3}).initializer("x_zp", U8, {}).output("y", I32);
  m.node("ConvInteger", {"x", "w", "x_zp"}, {"y"}, "iconv").attr("kernel_shape", Shape{3, 3});
  auto w = parse(m);
  const auto& n = node(w, "iconv");
  // No padding, stride 1: 5 - 3 + 1 = 3 per axis.
  EXPECT_EQ(map_of(n, 0), "(d0, d5, (d2 + d4), (d1 + d3))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 3, 3, 3, 2, 3}));
  EXPECT_EQ(n.outputs[0]->dtype, DType::i32);
  EXPECT_FALSE(has_in_edge(w, "x_zp"));
}

TEST(Quantized, QLinearMatMulBroadcastsLikeMatMul) {
  ModelBuilder m("g");
  m.input("a", I8, {2, 3, 5}).initializer("b", I8, {5, 6}).output("y", I8);
  m.initializer("a_scale", F32, {}).initializer("a_zp", I8, {}).initializer("b_scale", F32, {}).initializer("b_zp", I8, {});
  m.initializer("y_scale", F32, {}).initializer("y_zp", I8, {});
  m.node("QLinearMatMul", {"a", "a_scale", "a_zp", "b", "b_scale", "b_zp", "y_scale", "y_zp"}, {"y"}, "qmm");
  auto w = parse(m);
  const auto& n = node(w, "qmm");
  // dims (b0, m, n, k): A[b0, m, k], B[k, n], Y[b0, m, n].
  EXPECT_EQ(n.type, "MatMul");
  EXPECT_EQ(map_of(n, 0), "(d0, d1, d3)");
  EXPECT_EQ(map_of(n, 1), "(d3, d2)");
  EXPECT_EQ(map_of(n, 2), "(d0, d1, d2)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 3, 6, 5}));
  EXPECT_EQ(n.outputs[0]->dtype, DType::i8);
}

TEST(Quantized, MatMulIntegerWritesInt32) {
  ModelBuilder m("g");
  m.input("a", U8, {4, 5}).initializer("b", I8, {5, 6}).output("y", I32);
  m.node("MatMulInteger", {"a", "b"}, {"y"}, "imm");
  auto w = parse(m);
  const auto& n = node(w, "imm");
  EXPECT_EQ(map_of(n, 0), "(d0, d2)");
  EXPECT_EQ(map_of(n, 1), "(d2, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{4, 6, 5}));
  EXPECT_EQ(n.outputs[0]->dtype, DType::i32);
}

TEST(Quantized, FloatDataIsAnError) {
  ModelBuilder m("g");
  m.input("x", F32, {1, 2, 5, 5}).initializer("w", I8, {3, 2, 3, 3}).output("y", U8);
  qlinear_params(m, U8, I8, U8);
  m.node("QLinearConv", {"x", "x_scale", "x_zp", "w", "w_scale", "w_zp", "y_scale", "y_zp"}, {"y"}, "qconv");
  expect_error([&] { (void)parse(m); }, {"qconv", "expects int8 or uint8 data", "'x'"});
}

}  // namespace
