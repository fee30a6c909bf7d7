// The chunked SSM block (chunked_ssm.cpp) against workload-spec §4: node order, shapes, maps,
// iterator kinds, dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(ChunkedSsmBlock, ChunkChain) {
  const Workload w = build(chunked_ssm_spec());  // L=64 H=32 C=16 -> 4 chunks
  EXPECT_EQ(w.size(), 10u);
  EXPECT_EQ(w.edges().size(), 9u);
  EXPECT_EQ(unique_dims(w), 5u);
  EXPECT_EQ(names(w).front(), "ssm_scan_h_init");
  EXPECT_EQ(names(w).back(), "ssm_scan_out");
  int chunks = 0;
  for (const auto& n : w.nodes()) {
    if (!n.has_iteration_space()) continue;
    ++chunks;
    EXPECT_EQ(n.type, "ScanChunk");
    EXPECT_EQ(kinds(n), "RP");
    EXPECT_EQ(loop_sizes(n), (Shape{16, 32}));
  }
  EXPECT_EQ(chunks, 4);
  // §7.20: a bigger chunk gives fewer nodes; a ragged last chunk keeps the remainder.
  const Workload fewer = build(chunked_ssm_spec(), {{"seq", "64"}, {"hidden", "16"}, {"chunk_size", "32"}});
  const Workload more = build(chunked_ssm_spec(), {{"seq", "64"}, {"hidden", "16"}, {"chunk_size", "16"}});
  EXPECT_LT(fewer.size(), more.size());
  const Workload ragged = build(chunked_ssm_spec(), {{"seq", "40"}, {"chunk_size", "16"}});
  EXPECT_EQ(ragged.node_by_name("ssm_scan_x2").outputs[0]->shape, (Shape{8, 32}));
}

}  // namespace
}  // namespace stream::blocks::test
