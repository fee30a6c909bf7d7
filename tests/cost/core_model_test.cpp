// CoreModel::from_core (cost/core_model.hpp): the accumulator precision and the memory levels per
// operand, read from reference core files.
#include <gtest/gtest.h>

#include <filesystem>

#include "stream/cost/core_model.hpp"
#include "stream/hardware/core_reader.hpp"

namespace {

using namespace stream::cost;

TEST(CoreModel, AccumulatorPrecisionFromTheCoreFile) {
  const std::filesystem::path cores = std::filesystem::path(STREAM_TEST_DATA_DIR) / "reference/stream-inputs/hardware/cores";
  const CoreModel mxu = CoreModel::from_core(stream::hardware::load_core_file(cores / "tpu_v7_mxu.yaml"));
  EXPECT_EQ(mxu.accumulator_bits, 32);  // operand_precision: {input: bf16, accumulator: fp32}
  const CoreModel tpu = CoreModel::from_core(stream::hardware::load_core_file(cores / "tpu_like.yaml"));
  EXPECT_EQ(tpu.accumulator_bits, 0);
  // The memory levels per operand follow the file order; tpu_like: B in rf_128B then sram_2MB.
  ASSERT_EQ(tpu.levels[kI2].size(), 2u);
  EXPECT_EQ(tpu.mems[static_cast<std::size_t>(tpu.levels[kI2][0])].name, "rf_128B");
  EXPECT_TRUE(tpu.mems[static_cast<std::size_t>(tpu.levels[kI2][0])].inner);
  EXPECT_FALSE(tpu.mems[static_cast<std::size_t>(tpu.levels[kI1][0])].inner);  // sram_2MB sits above rf_2B (O)
}

TEST(CoreModel, PrecisionNamesOfTheNarrowFormats) {
  const stream::Location here{.file = "core.yaml"};
  EXPECT_EQ(precision_bits("fp8", here), 8);
  EXPECT_EQ(precision_bits("f8e4m3fn", here), 8);
  EXPECT_EQ(precision_bits("f8e5m2", here), 8);
  EXPECT_EQ(precision_bits("fp4", here), 4);
  EXPECT_EQ(precision_bits("int4", here), 4);
  EXPECT_EQ(precision_bits("fp64", here), 64);
  EXPECT_THROW((void)precision_bits("fp5", here), stream::Error);
}

}  // namespace
