// ONNX element type codes (element_types.hpp) against onnx.proto's TensorProto.DataType of ONNX
// 1.18+ (FLOAT8E4M3FN = 17 ... INT2 = 26), which Debian's libonnx 1.12 does not enumerate.
#include <gtest/gtest.h>

#include "element_types.hpp"

using namespace stream;
using namespace stream::onnx_frontend;

TEST(OnnxElementTypes, CodesAboveTheLinkedEnumMapToTheirWidths) {
  EXPECT_EQ(dtype_of_onnx(17), DType::f8e4m3fn);
  EXPECT_EQ(dtype_of_onnx(18), DType::f8e4m3fnuz);
  EXPECT_EQ(dtype_of_onnx(19), DType::f8e5m2);
  EXPECT_EQ(dtype_of_onnx(20), DType::f8e5m2fnuz);
  EXPECT_EQ(dtype_of_onnx(21), DType::u4);
  EXPECT_EQ(dtype_of_onnx(22), DType::i4);
  EXPECT_EQ(dtype_of_onnx(23), DType::f4e2m1);
  EXPECT_EQ(dtype_of_onnx(24), DType::f8e8m0);
  EXPECT_EQ(dtype_of_onnx(25), DType::u2);
  EXPECT_EQ(dtype_of_onnx(26), DType::i2);
}

TEST(OnnxElementTypes, WideIntegersAndDoubleAreModelled) {
  EXPECT_EQ(dtype_of_onnx(4), DType::u16);
  EXPECT_EQ(dtype_of_onnx(11), DType::f64);
  EXPECT_EQ(dtype_of_onnx(12), DType::u32);
  EXPECT_EQ(dtype_of_onnx(13), DType::u64);
  EXPECT_EQ(dtype_of_onnx(7), DType::i64);
}

TEST(OnnxElementTypes, StringsComplexAndUnknownCodesAreNotModelledButNamed) {
  for (int code : {0, 8, 14, 15, 27, -1}) EXPECT_FALSE(dtype_of_onnx(code)) << code;
  EXPECT_EQ(onnx_type_name(17), "FLOAT8E4M3FN");
  EXPECT_EQ(onnx_type_name(22), "INT4");
  EXPECT_EQ(onnx_type_name(8), "STRING");
  EXPECT_EQ(onnx_type_name(99), "code 99");
}
