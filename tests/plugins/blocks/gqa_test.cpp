// The grouped-query attention block (gqa.cpp) against workload-spec §4: node order, shapes, maps,
// iterator kinds, dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(GqaBlock, MatchesSpecFigures) {
  const Workload w = build(gqa_spec());  // b=1 g=2 r=4 s=64 e=32
  EXPECT_EQ(names(w), (std::vector<std::string>{"q", "k", "v", "scores", "softmax", "context", "context_out"}));
  EXPECT_EQ(w.edges().size(), 6u);
  EXPECT_EQ(total_dims(w), 17);
  EXPECT_EQ(unique_dims(w), 7u);
  EXPECT_EQ(w.unified_dimensions().relations.size(), 10u);
  const Node& sc = w.node_by_name("scores");
  EXPECT_EQ(kinds(sc), "PPPPPR");
  EXPECT_EQ(positions(sc, IteratorKind::Reduction), (std::vector<int>{5}));
  EXPECT_EQ(sc.operand_mapping,
            (std::vector<AffineMap>{m(6, {0, 1, 2, 3, 5}), m(6, {0, 1, 4, 5}), m(6, {0, 1, 2, 3, 4})}));
  // §7.22: the rep axis (2) is INVARIANT for k and VARYING for q; v is INVARIANT on it in context.
  EXPECT_TRUE(sc.operand_mapping[0].uses_dim(2));
  EXPECT_FALSE(sc.operand_mapping[1].uses_dim(2));
  const Node& cx = w.node_by_name("context");
  EXPECT_FALSE(cx.operand_mapping[1].uses_dim(2));
  EXPECT_EQ(positions(cx, IteratorKind::Reduction), (std::vector<int>{5}));
  EXPECT_EQ(w.node_by_name("softmax").reduction_axes, (std::vector<int>{4}));
  EXPECT_EQ(w.node_by_name("softmax").outputs[0]->shape, (Shape{1, 2, 4, 64, 64}));
}

TEST(GqaBlock, MultiQueryAttention) {
  const Workload w = build(gqa_spec(), {{"groups", "1"}, {"reps", "8"}});
  const Node& sc = w.node_by_name("scores");
  EXPECT_FALSE(sc.operand_mapping[1].uses_dim(2));
  EXPECT_EQ(sc.outputs[0]->shape[1], 1);
  EXPECT_EQ(sc.outputs[0]->shape[2], 8);
}

}  // namespace
}  // namespace stream::blocks::test
