// Block-library helpers (workload-spec §4.11) against the acceptance cases of §7.16 and §7.20.
#include <gtest/gtest.h>

#include <algorithm>
#include <stream/error.hpp>

#include "block_test_util.hpp"
#include "library.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(SliceNode, FootprintIsTheSlicedRange) {
  const auto K = make_tensor("K", DType::bf16, {128, 32});
  const Node a = slice_node(K, 0, 0, 10, "s");
  EXPECT_EQ(a.type, "Slice");
  EXPECT_EQ(a.outputs[0]->name, "s_out");
  EXPECT_EQ(a.outputs[0]->shape, (Shape{10, 32}));
  EXPECT_EQ(a.operand_mapping[0].ranges(loop_sizes(a)), (std::vector<Interval>{{0, 9}, {0, 31}}));
  const Node b = slice_node(K, 0, 6, 4, "t");
  EXPECT_EQ(b.operand_mapping[0].str(), "(d0, d1) -> ((d0 + 6), d1)");
  EXPECT_EQ(b.operand_mapping[0].ranges(loop_sizes(b))[0], (Interval{6, 9}));
  // An offset read of a tensor that is not carried state is not a recurrence ([REC] of §1.8).
  EXPECT_EQ(kinds(b), "PP");
  const Node c = slice_node(K, 1, 8, 16, "u");
  EXPECT_EQ(c.outputs[0]->shape, (Shape{128, 16}));
  EXPECT_EQ(c.operand_mapping[0].ranges(loop_sizes(c))[1], (Interval{8, 23}));
  EXPECT_THROW((void)slice_node(K, 0, 120, 10, "bad"), Error);
  EXPECT_THROW((void)slice_node(K, 2, 0, 1, "bad"), Error);
}

TEST(GatherNode, SourceRowIsADataDependentReduction) {
  const auto K = make_tensor("K", DType::bf16, {128, 32});
  const Node g = gather_node(K, 0, 3, "g");
  EXPECT_EQ(g.type, "Gather");
  EXPECT_EQ(g.outputs[0]->shape, (Shape{3, 32}));
  EXPECT_EQ(g.num_dims(), 3);
  EXPECT_EQ(kinds(g), "PPR");
  EXPECT_TRUE(g.operand_mapping[0].uses_dim(2));  // src is VARYING for the data
  EXPECT_EQ(loop_sizes(g), (Shape{3, 32, 128}));
  EXPECT_EQ(g.operand_mapping[0].ranges(loop_sizes(g))[0], (Interval{0, 127}));
  const AccessRelation a = access_relation(g, 0);
  EXPECT_EQ(a.kind, AccessKind::DataDependent);
  EXPECT_EQ(a.index_tensor, "");
  const Node g1 = gather_node(K, 1, 5, "g1");
  EXPECT_EQ(g1.outputs[0]->shape, (Shape{128, 5}));
  EXPECT_EQ(g1.operand_mapping[0].str(), "(d0, d1, d2) -> (d0, d2)");
}

TEST(SparseAttentionKeyAccess, WindowPlusDilatedLookBack) {
  const AccessRelation a = sparse_attention_key_access(4, 2);
  EXPECT_EQ(a.kind, AccessKind::PiecewiseAffine);
  EXPECT_TRUE(a.is_static());
  ASSERT_EQ(a.pieces.size(), 2u);
  // §7.20: over the tile i = 8, w = 0..3 the pieces read K[4..7] and K[2..8]: hull 2..8.
  std::int64_t lo = 1 << 30, hi = -(1 << 30);
  for (const auto& p : a.pieces)
    for (std::int64_t w = 0; w < 4; ++w) {
      const std::int64_t k = p.eval(std::vector<std::int64_t>{8, w})[0];
      lo = std::min(lo, k);
      hi = std::max(hi, k);
    }
  EXPECT_EQ(lo, 2);
  EXPECT_EQ(hi, 8);
  EXPECT_THROW((void)sparse_attention_key_access(0, 2), Error);
}

}  // namespace
}  // namespace stream::blocks::test
