// A whole run with and without DMA models (hardware/dma.hpp): a hardware file without DMA fields
// gives today's figures exactly (the reference's 2-conv golden on tpu_like_quad_core and the
// energy of docs/energy.md), a neutral model (bursts of one bit, no setup) gives them too, and a
// real one prices every transfer on the bus.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/run.hpp>

#include "dma_hardware.hpp"
#include "../../schedule/two_conv_fixture.hpp"

using namespace stream;

using stream::test::tpu_with_bus_dma;

namespace {

const std::string kHardware = std::string(STREAM_INPUTS_DIR) + "/hardware";

}  // namespace

TEST(DmaRun, WithoutDmaFieldsEveryFigureIsTodays) {
  const auto acc = hardware::load_accelerator(kHardware + "/tpu_like_quad_core.yaml");
  const auto r = pipeline::run(test::two_conv(), acc);
  ASSERT_TRUE(r.solved());
  EXPECT_EQ(r.total_latency, 14344);                // goldens.md, 2-conv on tpu_like_quad_core
  EXPECT_NEAR(r.total_energy, 18911243.392, 1e-3);  // docs/energy.md's worked example
  for (const auto& g : r.groups)
    for (const auto& n : g.schedule.nodes)
      for (const auto& p : n.plans) {
        EXPECT_TRUE(p.link_costs.empty()) << n.name;
        const double bits = static_cast<double>(g.schedule.tensors[static_cast<std::size_t>(n.inputs.front())].bits);
        EXPECT_EQ(p.latency, static_cast<std::int64_t>(std::ceil(bits / p.min_bandwidth))) << n.name;
      }
}

TEST(DmaRun, ANeutralDmaModelChangesNothing) {
  // Bursts of one bit and no setup: words = ceil(bits / bandwidth), as without a model.
  const auto plain = pipeline::run(test::two_conv(), tpu_with_bus_dma(""));
  const auto neutral = pipeline::run(test::two_conv(), tpu_with_bus_dma("{burst_bits: 1, setup_cycles: 0}"));
  ASSERT_TRUE(neutral.solved());
  EXPECT_EQ(neutral.total_latency, plain.total_latency);
  EXPECT_DOUBLE_EQ(neutral.total_energy, plain.total_energy);
  bool priced = false;
  for (const auto& n : neutral.groups.at(0).schedule.nodes)
    for (const auto& p : n.plans) priced = priced || !p.link_costs.empty();
  EXPECT_TRUE(priced);
}

TEST(DmaRun, ASetupPerDescriptorMakesEveryBusTransferDearer) {
  const auto plain = pipeline::run(test::two_conv(), tpu_with_bus_dma(""));
  const auto dma = pipeline::run(test::two_conv(), tpu_with_bus_dma("{burst_bits: 256, setup_cycles: 10}"));
  ASSERT_TRUE(dma.solved());
  const auto& a = plain.groups.at(0).schedule;
  const auto& b = dma.groups.at(0).schedule;
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  std::size_t transfers = 0;
  for (std::size_t i = 0; i < a.nodes.size(); ++i)
    for (std::size_t p = 0; p < a.nodes[i].plans.size(); ++p) {
      // Every example tensor's bits are a multiple of 256 and its box is one run: exactly 10 more.
      if (a.nodes[i].plans[p].links.empty()) continue;
      EXPECT_EQ(b.nodes[i].plans[p].latency, a.nodes[i].plans[p].latency + 10) << a.nodes[i].name;
      ++transfers;
    }
  EXPECT_EQ(transfers, 5u);
  EXPECT_GT(dma.total_latency, plain.total_latency);
}
