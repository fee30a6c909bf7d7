// A MatMul whose fp32 weight share alone is four times the capacity tiler's budget: vit_l_16's
// MLP MatMul, x [1, 197, 1024] times W [1024, 4096], on tpu_like_quad_core (2 MB = 16,777,216 bits
// per core, budget half of it). N (4096, the largest parallel dim) splits over the 4 cores, so a
// core holds x 197 x 1024, W 1024 x 1024 and y 197 x 1024 (f32). The reference's greedy spends the
// 1,024-tile cap on the 197 tokens (prime: cut to 1) and stops over with a [512, 512] weight tile
// whose double buffer is the whole memory, so the allocation fails on memory_capacity (16,826,368
// bits needed, 16,777,216 held). The memory fallback, with no finer fill to try past the cap, no
// specialised core to leave out and one node that cannot be cut, maps it again tiled by tile cost
// (mapping/capacity_tiler.hpp): N and K halved twice each, K 256 innermost (a reduction), then
// N 256, 4 x 4 = 16 iterations, 5,324,800 bits per core, within the budget.
#include <gtest/gtest.h>

#include <string>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/run.hpp>

#include "../../plugins/onnx-frontend/onnx_test_util.hpp"
#include "bundled_hardware.hpp"

using namespace stream;
using namespace stream::onnx_testing;

TEST(WeightTiling, VitLargeMlpMatMulTilesTheWeightNotTheTokens) {
  const auto& acc = test::bundled_accelerator();
  ModelBuilder m("mlp");
  m.input("x", F32, {1, 197, 1024}).initializer("w", F32, {1024, 4096}).output("y", F32, {1, 197, 4096}, true);
  m.node("MatMul", {"x", "w"}, {"y"}, "mlp");
  const auto r = pipeline::run(onnx_test::parse(m), acc, {});
  pipeline::RunSpec strict;
  strict.memory_fallback = false;  // the reference's rule: infeasible
  EXPECT_FALSE(pipeline::run(onnx_test::parse(m), acc, strict).solved());
  ASSERT_TRUE(r.solved());
  ASSERT_EQ(r.groups.size(), 1u);
  const auto& g = r.groups[0];
  ASSERT_EQ(g.attempts.size(), 2u);
  EXPECT_TRUE(g.attempts[0].tile_cap_reached);
  EXPECT_EQ(g.attempts[0].status, "INFEASIBLE");
  EXPECT_EQ(g.attempts[1].change, "tiling by tile cost past the tile cap (capacity tiler fill 50%)");
  EXPECT_FALSE(g.attempts[1].tile_cap_reached);
  // MatMul dims (b, m, n, k) = D0..D3: k tiled innermost, then n.
  ASSERT_EQ(g.mapping.intra_core_tiling.size(), 2u);
  EXPECT_EQ(g.mapping.intra_core_tiling[0].dim, 3);
  EXPECT_EQ(g.mapping.intra_core_tiling[0].tile, 256);
  EXPECT_EQ(g.mapping.intra_core_tiling[1].dim, 2);
  EXPECT_EQ(g.mapping.intra_core_tiling[1].tile, 256);
  EXPECT_EQ(g.tiled.iterations(), 16);
  EXPECT_GT(r.total_latency, 0);
}
