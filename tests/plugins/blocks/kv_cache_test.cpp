// The KV-cache decode block (kv_cache.cpp) against workload-spec §4: node order, shapes, maps,
// iterator kinds, dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(KvCacheBlock, DecodeStep) {
  const Workload w = build(kv_cache_spec());  // cap=128 t=40 e=64
  EXPECT_EQ(names(w), (std::vector<std::string>{"K_cache", "V_cache", "q_new", "K_valid", "V_valid", "scores", "softmax",
                                                 "context", "context_out"}));
  EXPECT_EQ(w.edges().size(), 8u);
  EXPECT_EQ(total_dims(w), 12);
  EXPECT_EQ(unique_dims(w), 4u);
  const Node& kv = w.node_by_name("K_valid");
  EXPECT_EQ(kv.type, "Slice");
  EXPECT_EQ(kv.outputs[0]->name, "K_valid_out");
  EXPECT_EQ(kv.outputs[0]->shape, (Shape{40, 64}));
  EXPECT_EQ(kv.operand_mapping[0], AffineMap::identity(2));
  // Outputs are read first ([REC] of spec §1.6), so the slice loops over the 40 valid rows, not
  // the 128 the reference reports through its input-first quirk.
  EXPECT_EQ(loop_sizes(kv), (Shape{40, 64}));
  EXPECT_EQ(kinds(kv), "PP");
  const Node& sc = w.node_by_name("scores");
  EXPECT_EQ(positions(sc, IteratorKind::Reduction), (std::vector<int>{2}));
  EXPECT_EQ(sc.outputs[0]->shape, (Shape{1, 40}));
  // §7.16: scores reads K_valid over rows 0..39.
  EXPECT_EQ(sc.operand_mapping[1].ranges(loop_sizes(sc))[0], (Interval{0, 39}));
  EXPECT_EQ(w.node_by_name("softmax").reduction_axes, (std::vector<int>{1}));
  EXPECT_EQ(w.node_by_name("context").outputs[0]->shape, (Shape{1, 64}));
  // The key-position axis is one unified dim of extent 40 (the reference reports 128 here).
  const auto& u = w.unified_dimensions();
  const int key_axis = u.dims_of(w.index_of("scores"), 3)[1];
  EXPECT_EQ(u.dims_of(w.index_of("K_valid"), 2)[0], key_axis);
  EXPECT_EQ(u.dims_of(w.index_of("context"), 3)[2], key_axis);
  EXPECT_EQ(u.dim_size.at(static_cast<std::size_t>(key_axis)), 40);
  EXPECT_THROW((void)build(kv_cache_spec(), {{"valid_len", "200"}}), Error);
}

}  // namespace
}  // namespace stream::blocks::test
