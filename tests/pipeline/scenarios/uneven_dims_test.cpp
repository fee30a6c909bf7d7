// Dimensions the core count does not divide (docs/pipeline.md, "A dimension the split does not
// divide"): a Conv with 58, 122, 7 or 1 output channels on the four cores of tpu_like_quad_core.
// A split of S channels over u cores in chunks of t per core gives n = ceil(S / (t x u))
// iterations of ceil(S / n) channels, each core costed on its longest share ceil(S_iter / u); the
// figures below follow by hand from that rule. ShuffleNet v2 x1.0 / x2.0 (58 and 122 channels
// per branch) stopped on exactly this ("does not divide the dimension").
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/mapping/mapping.hpp>
#include <stream/cost/estimate_costs.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/registry/registries.hpp>

#include "../../plugins/onnx-frontend/onnx_test_util.hpp"
#include "bundled_hardware.hpp"

using namespace stream;
using namespace stream::onnx_testing;

namespace {

// A 3x3 pad-1 Conv from [1, 8, 8, 8] to [1, k, 8, 8]: 8 x 8 x 3 x 3 x 8 = 4608 MACs per output channel.
constexpr std::int64_t kMacsPerChannel = 8 * 8 * 3 * 3 * 8;

Workload conv_with_channels(std::int64_t k) {
  ModelBuilder m("g");
  m.input("x", F32, {1, 8, 8, 8}).initializer("w", F32, {k, 8, 3, 3}).output("y", F32, {1, k, 8, 8}, true);
  m.node("Conv", {"x", "w"}, {"y"}, "Conv").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  return onnx_test::parse(m);
}

// The Conv on cores 0-3, its output channels (D6 = k) split 4 ways, `tile` channels per core per
// iteration.
pipeline::RunSpec split4(std::int64_t tile) {
  const std::string text = "layers:\n- name: Conv\n  core_allocation: [[0, 1, 2, 3]]\n"
                           "  inter_core_tiling: [[{dim: D6, split: 4}]]\n"
                           "fused_groups:\n- name: G\n  layers: [Conv]\n"
                           "  intra_core_tiling: [{dim: Conv.D6, tile: " +
                           std::to_string(tile) + "}]\n";
  pipeline::RunSpec o;
  o.mapping_data = std::make_shared<const mapping::Mapping>(mapping::parse_mapping_text(text, "split4.yaml"));
  return o;
}

struct Expected {
  std::int64_t channels, tile, iterations, iteration_channels, per_core_channels;
};

void expect_uneven(const Expected& e) {
  SCOPED_TRACE("k = " + std::to_string(e.channels) + ", tile " + std::to_string(e.tile));
  const auto r = pipeline::run(conv_with_channels(e.channels), test::bundled_accelerator(), split4(e.tile));
  ASSERT_TRUE(r.solved());
  ASSERT_EQ(r.groups.size(), 1u);
  const auto& g = r.groups[0];
  EXPECT_EQ(g.tiled.iterations(), e.iterations);
  EXPECT_EQ(g.tiled.total_mac_ops, kMacsPerChannel * e.channels);
  const std::size_t conv = g.tiled.workload.index_of("Conv");
  EXPECT_EQ(g.tiled.workload.loop_sizes(conv).back(), e.iteration_channels);
  // One core's tile: every dim whole but k, which is the longest core's share.
  const cost::Tile tile = cost::core_tile(g.tiled, conv);
  std::int64_t macs = 1;
  for (const auto& d : tile.dims) macs *= d.size;
  EXPECT_EQ(tile.dims.back().size, e.per_core_channels);
  EXPECT_EQ(macs, kMacsPerChannel * e.per_core_channels);
  EXPECT_GT(r.total_latency, 0);
}

}  // namespace

// The whole layer in one iteration (tile = ceil(k / 4)): the last core holds the remainder.
TEST(UnevenDims, FiftyEightChannelsOnFourCoresAreFifteenPerCoreInOneIteration) {
  // ceil(58 / 4) = 15: chunk 60 >= 58, one iteration of 58; cores hold 15, 15, 15, 13.
  expect_uneven({58, 15, 1, 58, 15});
}

TEST(UnevenDims, OneHundredTwentyTwoChannelsOnFourCoresAreThirtyOnePerCore) {
  expect_uneven({122, 31, 1, 122, 31});  // 31 + 31 + 31 + 29
}

TEST(UnevenDims, SevenChannelsOnFourCoresAreTwoPerCore) {
  expect_uneven({7, 2, 1, 7, 2});  // 2 + 2 + 2 + 1
}

TEST(UnevenDims, OneChannelCannotBeSplitFourWaysByAMappingFile) {
  // A split larger than its dim is the mapping's error (named, exit 2), not a silently idle core.
  try {
    (void)pipeline::run(conv_with_channels(1), test::bundled_accelerator(), split4(1));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("split 4 of D6 exceeds its size 1"), std::string::npos) << e.what();
  }
}

// ONNX's test_split_1d_uneven_split_opset18: [7] split into 4 outputs of 2, 2, 2 and 1. The four
// chunk nodes share one unified dim (offsets 0, 2, 4, 6) whose first slot is the size-1 chunk; the
// automatic mapping splits the size-2 chunks over 2 cores (gcd(4, 2)) and keeps the size-1 chunk
// on one. That unrolling 2 does not divide the unified size 1: it stopped with "intra-core tile 1 of
// Split_0.D0 (size 1, inter-core unrolling 2) does not divide the dimension".
TEST(UnevenDims, AnUnevenSplitsSizeOneChunkMapsAutomatically) {
  ModelBuilder m("g", 18);
  m.input("x", F32, {7});
  for (int i = 1; i <= 4; ++i) m.output("y" + std::to_string(i), F32, {i < 4 ? 2 : 1}, true);
  m.node("Split", {"x"}, {"y1", "y2", "y3", "y4"}, "Split").attr("num_outputs", std::int64_t{4});
  const auto r = pipeline::run(onnx_test::parse(m), test::bundled_accelerator());
  ASSERT_TRUE(r.solved());
  ASSERT_EQ(r.groups.size(), 1u);
  const auto& g = r.groups[0];
  // ceil(1 / (1 x 2)) = 1 iteration of ceil(1 / 1) = 1: the group is tiled as it is.
  EXPECT_EQ(g.tiled.iterations(), 1);
  // Each size-2 chunk is 1 element per core (2 over 2 cores), the size-1 chunk 1 on its one core.
  for (const auto& n : g.tiled.workload.nodes()) {
    if (!n.has_iteration_space()) continue;
    const cost::Tile tile = cost::core_tile(g.tiled, g.tiled.workload.index_of(n.name));
    ASSERT_EQ(tile.dims.size(), 1u) << n.name;
    EXPECT_EQ(tile.dims[0].size, 1) << n.name;
  }
  EXPECT_GT(r.total_latency, 0);
}

// Tiles smaller than a core's share: balanced iterations, each costed on its longest part.
TEST(UnevenDims, ATileOfOneChannelSplitsFiftyEightIntoFifteenIterationsOfFour) {
  // chunk 1 x 4 = 4: ceil(58 / 4) = 15 iterations of ceil(58 / 15) = 4 channels, 1 per core.
  expect_uneven({58, 1, 15, 4, 1});
}

TEST(UnevenDims, ATileOfEightSplitsOneHundredTwentyTwoIntoFourIterationsOfThirtyOne) {
  // chunk 8 x 4 = 32: ceil(122 / 32) = 4 iterations of ceil(122 / 4) = 31, ceil(31 / 4) = 8 per core.
  expect_uneven({122, 8, 4, 31, 8});
}

TEST(UnevenDims, ATileOfOneSplitsSevenIntoTwoIterationsOfFour) {
  // chunk 4: ceil(7 / 4) = 2 iterations of ceil(7 / 2) = 4 channels (4 + 3), 1 per core.
  expect_uneven({7, 1, 2, 4, 1});
}

// ShuffleNet v2 x1.0's stage input: two branches of 58 channels concatenated to 116. ConvA's
// output channels come first in dataflow order, so their unified dim has size 58, while the
// Concat, on the same dim, splits 116 channels four ways: unrolling 4 on a dim of 58. A tile of one
// channel per core (what the automatic mapping chose in ShuffleNet) stopped with "intra-core tile 1
// of ConvA.D6 (size 58, inter-core unrolling 4) does not divide the dimension".
TEST(UnevenDims, ShuffleNetsFiftyEightChannelBranchMapsAutomaticallyWithATileOfOne) {
  ModelBuilder m("g");
  m.input("x", F32, {1, 16, 8, 8}).initializer("wa", F32, {58, 16, 1, 1}).initializer("wb", F32, {58, 16, 1, 1});
  m.output("y", F32, {1, 116, 8, 8}, true);
  m.node("Conv", {"x", "wa"}, {"a"}, "ConvA").attr("kernel_shape", Shape{1, 1});
  m.node("Conv", {"x", "wb"}, {"b"}, "ConvB").attr("kernel_shape", Shape{1, 1});
  m.node("Concat", {"a", "b"}, {"y"}, "Concat").attr("axis", std::int64_t{1});
  pipeline::RunSpec o;
  o.intra_core_tiling = {{"ConvA", 6, 1}};
  const auto r = pipeline::run(onnx_test::parse(m), test::bundled_accelerator(), o);
  ASSERT_TRUE(r.solved());
  const auto& g = r.groups.at(0);
  // Chunk 1 x 4: ceil(58 / 4) = 15 iterations of ceil(58 / 15) = 4 channels.
  EXPECT_EQ(g.tiled.iterations(), 15);
  const std::size_t conv = g.tiled.workload.index_of("ConvA");
  EXPECT_EQ(g.tiled.workload.loop_sizes(conv).back(), 4);
  // ConvA splits its own 58 channels gcd(4, 58) = 2 ways: 2 of the iteration's 4 per core.
  EXPECT_EQ(g.mapping.nodes.at(conv).inter_core_tiling.front(), (mapping::DimSplit{6, 2}));
  EXPECT_EQ(cost::core_tile(g.tiled, conv).dims.back().size, 2);
  EXPECT_GT(r.total_latency, 0);
}
