// The linear-attention block (linear_attention.cpp) against workload-spec §4: node order, shapes,
// maps, iterator kinds, dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(LinearAttentionBlock, RecurrenceAndFigures) {
  const Workload w = build(linear_attention_spec());  // s=64 dk=32 dv=32
  EXPECT_EQ(names(w), (std::vector<std::string>{"k", "v", "q", "state_prev", "state_update", "readout", "y"}));
  EXPECT_EQ(w.edges().size(), 6u);
  EXPECT_EQ(total_dims(w), 6);
  EXPECT_EQ(unique_dims(w), 3u);
  const Node& su = w.node_by_name("state_update");
  EXPECT_EQ(su.type, "StateUpdate");
  EXPECT_EQ(kinds(su), "SPP");
  EXPECT_EQ(su.operand_mapping[2].str(), "(d0, d1, d2) -> ((d0 + -1), d1, d2)");
  // §7.22: the footprint of state_prev at t=5 is the single step t-1 = 4.
  EXPECT_EQ(su.operand_mapping[2].result(0).eval(std::vector<std::int64_t>{5, 0, 0}), 4);
  const Node& ro = w.node_by_name("readout");
  EXPECT_EQ(kinds(ro), "PPR");
  EXPECT_EQ(positions(ro, IteratorKind::Reduction), (std::vector<int>{2}));
}

}  // namespace
}  // namespace stream::blocks::test
