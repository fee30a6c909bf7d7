// The flash-attention block (flash_attention.cpp) against workload-spec §4: node order, shapes,
// maps, iterator kinds, dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(FlashAttentionBlock, OnlineSoftmaxChain) {
  const Workload w = build(flash_attention_spec());  // sq=64 sk=64 dh=32 blk=16 -> 4 blocks
  EXPECT_EQ(w.size(), 17u);
  EXPECT_EQ(w.edges().size(), 19u);
  // 9, not fewer: only the first shared tensor (m) of a block->block edge relates dims (§1.7).
  EXPECT_EQ(unique_dims(w), 9u);
  const Node& b0 = w.node_by_name("attention_block0");
  EXPECT_EQ(b0.type, "AttentionBlock");
  EXPECT_EQ(kinds(b0), "PPR");
  EXPECT_EQ(loop_sizes(b0), (Shape{64, 32, 16}));
  const Node& b1 = w.node_by_name("attention_block1");
  EXPECT_EQ(b1.inputs[3]->name, "attention_o0");
  EXPECT_EQ(b1.inputs[4]->name, "attention_l0");
  EXPECT_EQ(b1.inputs[5]->name, "attention_m0");
  // §7.20: flash_attention(8, 32, 16, 8) has 4 blocks with both R and P dims.
  const Workload small =
      build(flash_attention_spec(), {{"seq_q", "8"}, {"seq_k", "32"}, {"d_head", "16"}, {"block_size", "8"}});
  int blocks = 0;
  for (const auto& n : small.nodes()) blocks += n.type == "AttentionBlock";
  EXPECT_EQ(blocks, 4);
  const std::string k0 = kinds(small.node_by_name("attention_block0"));
  EXPECT_NE(k0.find('R'), std::string::npos);
  EXPECT_NE(k0.find('P'), std::string::npos);
}

}  // namespace
}  // namespace stream::blocks::test
