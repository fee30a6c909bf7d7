// The attention block (attention.cpp) against workload-spec §4: node order, shapes, maps, iterator
// kinds, dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(AttentionBlock, MatchesSpecFigures) {
  const Workload w = build(attention_spec());
  EXPECT_EQ(names(w), (std::vector<std::string>{"x", "Wq", "proj_q", "Wk", "proj_k", "Wv", "proj_v", "scores",
                                                 "softmax", "context", "Wo", "out_proj", "y"}));
  EXPECT_EQ(w.size(), 13u);
  EXPECT_EQ(w.edges().size(), 14u);
  EXPECT_EQ(count(w, NodeKind::InEdge), 5u);
  EXPECT_EQ(count(w, NodeKind::Normalization), 1u);
  EXPECT_EQ(count(w, NodeKind::OutEdge), 1u);
  EXPECT_EQ(total_dims(w), 34);
  EXPECT_EQ(unique_dims(w), 8u);
  EXPECT_EQ(w.unified_dimensions().relations.size(), 27u);
  int matmuls = 0;
  for (const auto& n : w.nodes()) {
    if (n.type == "MatMul") {
      ++matmuls;
      EXPECT_FALSE(positions(n, IteratorKind::Reduction).empty()) << n.name;
      EXPECT_TRUE(positions(n, IteratorKind::Sequential).empty()) << n.name;
    }
    for (const auto& t : n.inputs) EXPECT_EQ(t->dtype, DType::bf16) << t->name;
  }
  EXPECT_EQ(matmuls, 6);
}

TEST(AttentionBlock, MapsShapesAndKinds) {
  const Workload w = build(attention_spec());  // b=1 h=8 s=128 e=64 D=512
  const Node& pq = w.node_by_name("proj_q");
  EXPECT_EQ(kinds(pq), "PPPPR");
  EXPECT_EQ(pq.operand_mapping, (std::vector<AffineMap>{m(5, {0, 2, 4}), m(5, {4, 1, 3}), m(5, {0, 1, 2, 3})}));
  EXPECT_EQ(pq.inputs[1]->shape, (Shape{512, 8, 64}));
  EXPECT_EQ(pq.outputs[0]->shape, (Shape{1, 8, 128, 64}));
  EXPECT_EQ(loop_sizes(pq), (Shape{1, 8, 128, 64, 512}));
  const Node& sc = w.node_by_name("scores");
  EXPECT_EQ(kinds(sc), "PPPPR");
  EXPECT_EQ(sc.operand_mapping, (std::vector<AffineMap>{m(5, {0, 1, 2, 4}), m(5, {0, 1, 3, 4}), m(5, {0, 1, 2, 3})}));
  EXPECT_EQ(sc.outputs[0]->shape, (Shape{1, 8, 128, 128}));
  const Node& sm = w.node_by_name("softmax");
  EXPECT_EQ(sm.kind, NodeKind::Normalization);
  EXPECT_EQ(sm.type, "Softmax");
  EXPECT_EQ(sm.reduction_axes, (std::vector<int>{3}));
  EXPECT_EQ(kinds(sm), "PPPP");  // the reduction lives in reduction_axes, not in the maps
  EXPECT_EQ(sm.outputs[0]->name, "probs");
  const Node& cx = w.node_by_name("context");
  EXPECT_EQ(kinds(cx), "PPPPR");
  EXPECT_EQ(cx.operand_mapping, (std::vector<AffineMap>{m(5, {0, 1, 2, 4}), m(5, {0, 1, 4, 3}), m(5, {0, 1, 2, 3})}));
  const Node& op = w.node_by_name("out_proj");
  EXPECT_EQ(kinds(op), "PPPRR");
  EXPECT_EQ(op.operand_mapping, (std::vector<AffineMap>{m(5, {0, 3, 1, 4}), m(5, {3, 4, 2}), m(5, {0, 1, 2})}));
  EXPECT_EQ(op.outputs[0]->shape, (Shape{1, 128, 512}));
  // §7.22: the context's probs footprint over the key axis is the whole sequence.
  const auto ranges = cx.operand_mapping[0].ranges(loop_sizes(cx));
  EXPECT_EQ(ranges.back(), (Interval{0, 127}));
}

TEST(AttentionBlock, ParametersAndDtype) {
  const Workload w = build(attention_spec(), {{"heads", "2"}, {"seq", "16"}, {"dtype", "f32"}});
  const Node& sc = w.node_by_name("scores");
  EXPECT_EQ(sc.outputs[0]->shape, (Shape{1, 2, 16, 16}));
  EXPECT_EQ(sc.outputs[0]->dtype, DType::f32);
  EXPECT_EQ(w.node_by_name("x").outputs[0]->shape, (Shape{1, 16, 128}));
  EXPECT_THROW((void)build(attention_spec(), {{"not_a_real_param", "1"}}), Error);
  EXPECT_THROW((void)build(attention_spec(), {{"heads", "0"}}), Error);
}

}  // namespace
}  // namespace stream::blocks::test
