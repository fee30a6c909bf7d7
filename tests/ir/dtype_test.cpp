// Element types (ir/dtype.hpp): the widths the pipeline costs with, against the formats' own
// definitions (IEEE binary64; the OCP 8-bit floats E4M3 and E5M2, 1 + 4 + 3 and 1 + 5 + 2 bits;
// E8M0 an 8-bit exponent; FP4 E2M1 1 + 2 + 1; INT4/UINT4 nibbles; INT2/UINT2), names and parsing.
#include <gtest/gtest.h>

#include <stream/ir/cast.hpp>
#include <stream/ir/dtype.hpp>
#include <stream/ir/tensor.hpp>

#include "thrown_error.hpp"

using namespace stream;

TEST(DType, WidthsAreTheFormatsBitCounts) {
  EXPECT_EQ(bits(DType::f64), 64);
  EXPECT_EQ(bits(DType::u64), 64);
  EXPECT_EQ(bits(DType::u32), 32);
  EXPECT_EQ(bits(DType::u16), 16);
  EXPECT_EQ(bits(DType::f8e4m3fn), 1 + 4 + 3);
  EXPECT_EQ(bits(DType::f8e4m3fnuz), 1 + 4 + 3);
  EXPECT_EQ(bits(DType::f8e5m2), 1 + 5 + 2);
  EXPECT_EQ(bits(DType::f8e5m2fnuz), 1 + 5 + 2);
  EXPECT_EQ(bits(DType::f8e8m0), 8);
  EXPECT_EQ(bits(DType::f4e2m1), 1 + 2 + 1);
  EXPECT_EQ(bits(DType::i4), 4);
  EXPECT_EQ(bits(DType::u4), 4);
  EXPECT_EQ(bits(DType::i2), 2);
  EXPECT_EQ(bits(DType::u2), 2);
}

TEST(DType, EveryNameParsesBackToItsType) {
  for (auto t : {DType::f32, DType::f16, DType::bf16, DType::i8, DType::u8, DType::i16, DType::i32, DType::i64, DType::b8,
                 DType::f64, DType::u16, DType::u32, DType::u64, DType::f8e4m3fn, DType::f8e4m3fnuz, DType::f8e5m2,
                 DType::f8e5m2fnuz, DType::f8e8m0, DType::f4e2m1, DType::i4, DType::u4, DType::i2, DType::u2})
    EXPECT_EQ(parse_dtype(name(t)), t) << name(t);
  EXPECT_EQ(parse_dtype("float8e4m3fn"), DType::f8e4m3fn);
  EXPECT_EQ(parse_dtype("int4"), DType::i4);
  EXPECT_EQ(parse_dtype("double"), DType::f64);
  EXPECT_EQ(parse_dtype("float4e2m1"), DType::f4e2m1);
  EXPECT_FALSE(parse_dtype("complex64"));
}

TEST(DType, AnUnknownNameIsAnErrorListingTheNewTypes) {
  const auto e = test::thrown_error([] { (void)dtype_from_string("int3", "--cast type"); });
  EXPECT_TRUE(test::mentions(e, "unsupported --cast type 'int3'")) << e.message();
  EXPECT_TRUE(test::mentions(e, "f8e4m3fn")) << e.message();
  EXPECT_TRUE(test::mentions(e, "i4")) << e.message();
}

TEST(DType, ATensorOccupiesItsElementsTimesTheWidth) {
  // 16 x 16 x 3 x 3 = 2304 elements: 18432 bits in FP8, 9216 in INT4 (two per byte), half of int8.
  const std::vector<std::int64_t> shape{16, 16, 3, 3};
  EXPECT_EQ(make_tensor("w", DType::f8e4m3fn, shape)->size_bits(), 18432);
  EXPECT_EQ(make_tensor("w", DType::i4, shape)->size_bits(), 9216);
  EXPECT_EQ(make_tensor("w", DType::i4, shape)->size_bits() * 2, make_tensor("w", DType::i8, shape)->size_bits());
  EXPECT_EQ(make_tensor("w", DType::f4e2m1, {3})->size_bits(), 12);  // an odd count: bits, not bytes
}

TEST(DType, DeploymentCastTakesDoublesButKeepsTheNarrowFloats) {
  EXPECT_TRUE(is_floating_point(DType::f64));
  EXPECT_FALSE(is_floating_point(DType::f8e4m3fn));  // already quantized, as int8 weights are
  EXPECT_FALSE(is_floating_point(DType::f4e2m1));
}
