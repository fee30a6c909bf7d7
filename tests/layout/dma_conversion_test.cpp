// A layout conversion on a strided DMA alone (layout/dma_conversion.hpp), priced by hand:
// K [32, 64] bf16 (32,768 bits) on tpu_like_quad_core whose off-chip bus (128 bits/cycle) has a
// DMA model with 256-bit bursts and 10 setup cycles; each side of the copy costs D x 10 +
// ceil(bursts x 256 / 128) cycles (docs/layout.md, "Pricing a transfer"), the runs of each side
// are copy_test.cpp's.
#include <gtest/gtest.h>

#include <stream/layout/dma_conversion.hpp>

#include "dma_hardware.hpp"

using namespace stream;
using stream::test::tpu_with_bus_dma;

namespace {
const std::vector<std::int64_t> kShape{32, 64};
const Layout kRowMajor{};
const Layout kColumnMajor{{1, 0}, std::nullopt};

// One side of the copy: runs, descriptors, cycles.
void expect_side(const schedule::LinkCost& side, std::int64_t runs, std::int64_t descriptors, std::int64_t cycles,
                 const char* what) {
  EXPECT_EQ(side.runs, runs) << what;
  EXPECT_EQ(side.descriptors, descriptors) << what;
  EXPECT_EQ(side.cycles, cycles) << what;
}
}  // namespace

TEST(LayoutDmaConversion, OnlyAStridedDmaTouchingTheOffchipCoreConverts) {
  EXPECT_TRUE(layout::dma_conversion_links(tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}")).empty());
  EXPECT_FALSE(layout::dma_conversion_cost(tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}"), kShape, 16, kRowMajor,
                                             kColumnMajor));
  const auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10, max_strides: 1}");
  const auto links = layout::dma_conversion_links(acc);
  ASSERT_EQ(links.size(), 1u);  // the bus, which carries every pair after replacement
  EXPECT_TRUE(acc.links().at(static_cast<std::size_t>(links[0])).is_bus());
}

TEST(LayoutDmaConversion, ATransposeWalksTheSideWithFewerDescriptors) {
  // Walking the target (1,0): the read is 2,048 runs of one element (a burst each) under 64
  // descriptors (one stride walks 32), 640 + 4,096 = 4,736; the write one run of 128 bursts, 10 +
  // 256 = 266: 5,002. Walking the source: a read of 266 and a write of 2,048 runs under 32
  // descriptors, 320 + 4,096 = 4,416: 4,682, the cheaper.
  const auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10, max_strides: 1}");
  const auto c = layout::dma_conversion_cost(acc, kShape, 16, kRowMajor, kColumnMajor);
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->walks_target);
  expect_side(c->read, 1, 1, 266, "read");
  expect_side(c->write, 2048, 32, 4416, "write");
  EXPECT_EQ(c->cycles, 4682);
}

TEST(LayoutDmaConversion, ABlockedTargetAndItsEnergy) {
  // Into (1,0,1:8), walking the target: 256 read runs of 8 (128 bits, a burst each) under 8
  // descriptors, 80 + 512 = 592, and one written run, 266: 858 (walking the source: 266 and 256
  // written runs under 32 descriptors, 320 + 512 = 832: 1,098). Energy: 5 pJ per descriptor,
  // (8 + 1) x 5 = 45, 2 pJ per bus word, (512 + 256) x 2 = 1,536, and the off-chip memory's read
  // and write of K, 32,768 / 64 x 1,000 pJ each: 1,024,000 + 1,536 + 45.
  auto acc = tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10, max_strides: 1, setup_energy: 5}");
  for (auto& c : acc.connectivity) c.unit_energy_cost = 2;
  acc.build_interconnect(false);
  const auto c = layout::dma_conversion_cost(acc, kShape, 16, kRowMajor, Layout{{1, 0, 1}, AxisBlock{1, 8}});
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->walks_target);
  expect_side(c->read, 256, 8, 592, "read");
  expect_side(c->write, 1, 1, 266, "write");
  EXPECT_EQ(c->cycles, 858);
  EXPECT_DOUBLE_EQ(c->energy, 1024000.0 + 1536 + 45);
}
