// The AIE backend's formula on the worked figures of aie-and-defaults §1.4, with the request
// built by hand (tiled dims, split factors, kernel utilisation, element types).
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "aie_backend.hpp"

using namespace stream;

namespace {

hardware::Core core_of_type(hardware::Namespace ns, hardware::CoreKind kind) {
  hardware::Core c;
  c.type.ns = ns;
  c.type.kind = kind;
  return c;
}

struct Case {
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> splits;
  std::optional<double> utilization;
  DType type = DType::bf16;
};

cost::CostEntry cost_of(const Case& k) {
  const cost::Tile tile{.name = "n", .op_type = "Conv", .dims = {}, .operands = {}};
  const auto core = core_of_type(hardware::Namespace::Aie2, hardware::CoreKind::Compute);
  return aie::aie_cost(CostRequest{tile, k.dims, core, k.splits, k.utilization, {k.type, k.type}, k.type});
}

}  // namespace

TEST(AieCost, TwoConvConv1OnOneTile) {
  // 1*32*32*3*3*8*16 = 1,179,648 macs; / 32 bf16 ops per cycle = 36,864.
  const auto e = cost_of({{1, 32, 32, 3, 3, 8, 16}, {}, {}});
  EXPECT_EQ(aie::aie_macs({1, 32, 32, 3, 3, 8, 16}, {}), 1179648);
  EXPECT_EQ(e.ideal_cycle, 36864);
  EXPECT_EQ(e.ideal_temporal_cycle, 36864);
  EXPECT_EQ(e.latency_total, 36864);
  EXPECT_EQ(e.energy_total, 0);
  EXPECT_EQ(e.backend, "aie");
  ASSERT_TRUE(e.utilization.has_value());
  EXPECT_EQ(*e.utilization, 100.0);
  EXPECT_FALSE(e.is_fallback());
  EXPECT_TRUE(e.is_estimate());  // no ZigZag figures: the metrics treat it as the reference's cme None
}

TEST(AieCost, TwoConvConv1SplitFourAndThirtyTwo) {
  // 1,179,648 / 4 = 294,912 macs -> 9,216 cycles; / 32 = 36,864 macs -> 1,152.
  EXPECT_EQ(cost_of({{1, 32, 32, 3, 3, 8, 16}, {4}, {}}).latency_total, 9216);
  EXPECT_EQ(cost_of({{1, 32, 32, 3, 3, 8, 16}, {32}, {}}).latency_total, 1152);
}

TEST(AieCost, TwoConvConv2ThreePlacements) {
  // Conv2: 1*32*32*3*3*16*32 = 4,718,592 macs; /32 = 147,456; split 4: 36,864; split 32: 4,608.
  EXPECT_EQ(cost_of({{1, 32, 32, 3, 3, 16, 32}, {}, {}}).latency_total, 147456);
  EXPECT_EQ(cost_of({{1, 32, 32, 3, 3, 16, 32}, {4}, {}}).latency_total, 36864);
  EXPECT_EQ(cost_of({{1, 32, 32, 3, 3, 16, 32}, {32}, {}}).latency_total, 4608);
}

TEST(AieCost, GemmTileWithAndWithoutKernel) {
  // M128*K32*N256 = 1,048,576; F = 4*8 = 32 -> 32,768 macs; /32 = 1,024.
  // With the gemm kernel's 61.8 %: 32 * 0.618 = 19.776 ops per cycle, 32768 / 19.776 = 1656.96 -> 1,657.
  const auto plain = cost_of({{128, 32, 256}, {4, 8}, {}});
  EXPECT_EQ(plain.ideal_cycle, 1024);
  EXPECT_EQ(plain.latency_total, 1024);
  const auto kernel = cost_of({{128, 32, 256}, {4, 8}, 61.8});
  EXPECT_EQ(kernel.ideal_cycle, 1024);  // the ideal ignores the kernel
  EXPECT_EQ(kernel.latency_total, 1657);
  EXPECT_EQ(*kernel.utilization, 61.8);
}

TEST(AieCost, SiluTileWithAndWithoutKernel) {
  // seq128*hidden128 = 16,384; F = 4 -> 4,096 macs; /32 = 128; silu 50 %: 4096 / 16 = 256.
  EXPECT_EQ(cost_of({{128, 128}, {4}, {}}).latency_total, 128);
  EXPECT_EQ(cost_of({{128, 128}, {4}, 50.0}).latency_total, 256);
}

TEST(AieCost, FloatThirtyTwoIsSixteenOpsPerCycle) {
  // 4,096 macs at 16 f32 ops per cycle = 256.
  EXPECT_EQ(cost_of({{128, 128}, {4}, {}, DType::f32}).latency_total, 256);
}

TEST(AieCost, FloorDivisionAndZeroSplitGuard) {
  // No divisibility check: 30 // 4 = 7 macs -> ceil(7/32) = 1; a zero product counts as 1.
  EXPECT_EQ(aie::aie_macs({30}, {4}), 7);
  EXPECT_EQ(aie::aie_macs({30}, {0}), 30);
}

TEST(AieCost, AnUnevenSplitCostsTheLongestTilesShare) {
  // 58 channels x 64 on 4 tiles: the reference's 3,712 // 4 = 928 macs (29 cycles at 32 per
  // cycle) are 14.5 channels a tile; the longest tile holds ceil(58 / 4) = 15 channels, 960 macs,
  // 30 cycles.
  const cost::Tile tile{.name = "n", .op_type = "Conv", .dims = {{"k", 15}, {"c", 64}}, .operands = {}};
  const auto core = core_of_type(hardware::Namespace::Aie2, hardware::CoreKind::Compute);
  const auto e = aie::aie_cost(CostRequest{tile, {58, 64}, core, {4}, {}, {DType::bf16, DType::bf16}, DType::bf16});
  EXPECT_EQ(e.ideal_cycle, 30);
  // Even: 56 channels, 14 a tile, both ways 896 macs -> 28 cycles.
  const cost::Tile even{.name = "n", .op_type = "Conv", .dims = {{"k", 14}, {"c", 64}}, .operands = {}};
  EXPECT_EQ(aie::aie_cost(CostRequest{even, {56, 64}, core, {4}, {}, {DType::bf16, DType::bf16}, DType::bf16}).ideal_cycle, 28);
}

TEST(AieCost, UnmodelledTypesAreAClearErrorNamingTheNode) {
  const cost::Tile tile{.name = "Conv7", .op_type = "Conv", .dims = {}, .operands = {}};
  const auto core = core_of_type(hardware::Namespace::Aie2, hardware::CoreKind::Compute);
  auto msg = [&](std::vector<DType> in, DType out) {
    try {
      (void)aie::aie_cost(CostRequest{tile, {4}, core, {}, {}, std::move(in), out});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const auto mixed = msg({DType::bf16, DType::f32}, DType::bf16);
  EXPECT_NE(mixed.find("Conv7"), std::string::npos) << mixed;
  EXPECT_NE(mixed.find("different element types"), std::string::npos) << mixed;
  const auto i8 = msg({DType::i8, DType::i8}, DType::i8);
  EXPECT_NE(i8.find("Conv7"), std::string::npos) << i8;
  EXPECT_NE(i8.find("i8 -> i8"), std::string::npos) << i8;
  const auto widening = msg({DType::bf16}, DType::f32);
  EXPECT_NE(widening.find("bf16 -> f32"), std::string::npos) << widening;
}

TEST(AieCost, ClaimsOnlyAie2ComputeCores) {
  const auto b = aie::aie_backend();
  EXPECT_EQ(b.name, "aie");
  EXPECT_EQ(b.priority, 10);
  EXPECT_TRUE(b.claims(core_of_type(hardware::Namespace::Aie2, hardware::CoreKind::Compute)));
  EXPECT_FALSE(b.claims(core_of_type(hardware::Namespace::Aie2, hardware::CoreKind::Memory)));
  EXPECT_FALSE(b.claims(core_of_type(hardware::Namespace::Aie2, hardware::CoreKind::Shim)));
  EXPECT_FALSE(b.claims(core_of_type(hardware::Namespace::ZigZag, hardware::CoreKind::Compute)));
}
