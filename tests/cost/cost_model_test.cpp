// cost::estimate: the chosen mapping's bits per memory level (CoreCost::memory_bits, pipeline/memory_use.hpp),
// against what the core file and the tile fix whatever mapping the search picks.
#include <gtest/gtest.h>

#include <filesystem>

#include "stream/cost/cost_model.hpp"
#include "stream/hardware/core_reader.hpp"

namespace {

using namespace stream::cost;

TileOperand operand(const std::string& role, int bits, std::int64_t rows, int row_dim, std::int64_t cols, int col_dim) {
  return {role, bits, {rows, cols}, {AxisExpr{{{row_dim, 1}}, 0, 0}, AxisExpr{{{col_dim, 1}}, 0, 0}}};
}

TEST(MemoryBits, AGemmOnTpuLikeFillsItsLevelsAsTheFileAndTileFixThem) {
  const std::filesystem::path cores = std::filesystem::path(STREAM_TEST_DATA_DIR) / "reference/stream-inputs/hardware/cores";
  const CoreModel tpu = CoreModel::from_core(stream::hardware::load_core_file(cores / "tpu_like.yaml"));
  // O[m][n] = sum_k A[m][k] B[k][n]; M = N = 64, K = 128; int8 inputs, 16-bit output.
  const Tile gemm{"gemm", "Gemm", {{"M", 64}, {"N", 64}, {"K", 128}},
                  {operand("O", 16, 64, 0, 64, 1), operand("A", 8, 64, 0, 128, 2), operand("B", 8, 128, 2, 64, 1)}};
  CostOptions quick;
  quick.detail = false;
  const CoreCost c = estimate(gemm, tpu, quick);
  ASSERT_EQ(c.status, CostStatus::Ok) << c.reason;
  // tpu_like's memories in file order: rf_128B (B, one per PE, 1024 bits), rf_2B (O, 16 bits),
  // sram_2MB (A, B and O).
  ASSERT_EQ(c.memory_bits.size(), 3u);
  // The top level holds every operand whole: A 64x128x8 + B 128x64x8 + O 64x64x16 = 3 x 65,536.
  EXPECT_DOUBLE_EQ(c.memory_bits[2], 196608);
  // rf_2B holds exactly one 16-bit output per instance (nothing smaller moves, nothing more fits).
  EXPECT_DOUBLE_EQ(c.memory_bits[1], 16);
  // A PE's weight register holds whole 8-bit weights, within its 1,024 bits.
  EXPECT_GT(c.memory_bits[0], 0);
  EXPECT_LE(c.memory_bits[0], 1024);
  EXPECT_EQ(static_cast<std::int64_t>(c.memory_bits[0]) % 8, 0);
  // With the detailed evaluation the same mapping gives the same sizes.
  EXPECT_EQ(estimate(gemm, tpu).memory_bits, c.memory_bits);
}

}  // namespace
