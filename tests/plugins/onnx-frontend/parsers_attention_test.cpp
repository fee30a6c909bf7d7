// Attention, RMSNormalization and RotaryEmbedding (parsers_attention.cpp, opset 23), built without
// declared output shapes so that the frontend's own shape rules (own_shape_rules.cpp) give them;
// MACs and loop sizes derived by hand.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// Multi-head attention, 4-D: B 1, 2 heads, 4 queries, 6 keys, head size 8. Scores 1*2*4*6*8 = 384
// MACs, context 1*2*4*8*6 = 384: 768 in all; Y is (1, 2, 4, 8).
TEST(Attention, FourDimensionalHeadsGiveTwoMatMulsAndASoftmax) {
  ModelBuilder m("g", 23);
  m.input("Q", F32, {1, 2, 4, 8}).input("K", F32, {1, 2, 6, 8}).input("V", F32, {1, 2, 6, 8}).output("Y", F32);
  m.node("Attention", {"Q", "K", "V"}, {"Y"}, "attn");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{1, 2, 4, 8}));
  EXPECT_EQ(total_macs(w), 768);
  EXPECT_EQ(sizes(node(w, "attn_scores")), (std::vector<std::int64_t>{1, 2, 1, 4, 6, 8}));
  EXPECT_EQ(kinds(node(w, "attn_scores")), "PPPPPR");
  EXPECT_EQ(node(w, "attn_softmax").reduction_axes, (std::vector<int>{3}));
  EXPECT_EQ(sizes(node(w, "attn")), (std::vector<std::int64_t>{1, 2, 1, 4, 8, 6}));
}

// Grouped-query attention on 3-D inputs with a KV cache: 4 query heads over 2 kv heads (reps 2),
// head size 8, V head size 4, batch 2, 3 new tokens after 5 cached ones (8 positions).
// Y (2, 3, 4*4); present_key (2, 2, 8, 8); present_value (2, 2, 8, 4). Scores 2*2*2*3*8*8 = 1536
// MACs, context 2*2*2*3*4*8 = 768: 2304.
TEST(Attention, GroupedQueryAttentionWithPastReadsThreeDimensionalInputsInPlace) {
  ModelBuilder m("g", 23);
  m.input("Q", F32, {2, 3, 32}).input("K", F32, {2, 3, 16}).input("V", F32, {2, 3, 8});
  m.input("pk", F32, {2, 2, 5, 8}).input("pv", F32, {2, 2, 5, 4});
  m.output("Y", F32).output("present_key", F32).output("present_value", F32);
  m.node("Attention", {"Q", "K", "V", "", "pk", "pv"}, {"Y", "present_key", "present_value"}, "attn")
      .attr("q_num_heads", 4)
      .attr("kv_num_heads", 2);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 3, 16}));
  EXPECT_EQ(graph_output_shape(w, "present_key"), (std::vector<std::int64_t>{2, 2, 8, 8}));
  EXPECT_EQ(graph_output_shape(w, "present_value"), (std::vector<std::int64_t>{2, 2, 8, 4}));
  EXPECT_EQ(total_macs(w), 2304);
  const auto& scores = node(w, "attn_scores");
  EXPECT_EQ(sizes(scores), (std::vector<std::int64_t>{2, 2, 2, 3, 8, 8}));
  EXPECT_EQ(map_of(scores, 0), "(d0, d3, (((d1 * 16) + (d2 * 8)) + d5))");  // Q head g*2 + r, in place
  // The new keys land after the 5 cached ones: read at t - 5, masked to their part.
  const auto& concat = node(w, "attn_present_key");
  EXPECT_EQ(map_of(concat, 1), "(d0, (d2 + -5), ((d1 * 8) + d3))");
  EXPECT_EQ(access_relation(concat, 1).kind, AccessKind::PiecewiseAffine);
}

TEST(Attention, MaskAndSoftcapAreStagesAndTheScoresOutputIsTheChosenOne) {
  ModelBuilder m("g", 23);
  m.input("Q", F32, {1, 2, 4, 8}).input("K", F32, {1, 2, 6, 8}).input("V", F32, {1, 2, 6, 8}).input("M", F32, {4, 6});
  m.output("Y", F32).output("qk", F32);
  m.node("Attention", {"Q", "K", "V", "M"}, {"Y", "", "", "qk"}, "attn")
      .attr("softcap", 30.0F)
      .attr("qk_matmul_output_mode", 1);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "qk"), (std::vector<std::int64_t>{1, 2, 4, 6}));
  EXPECT_EQ(node(w, "attn_mask").outputs[0]->name, "qk");  // mode 1: after the mask
  EXPECT_EQ(map_of(node(w, "attn_mask"), 1), "(d2, d3)");
  EXPECT_EQ(node(w, "attn_softcap").type, "Softcap");
  EXPECT_EQ(total_macs(w), 768);
}

TEST(Attention, MismatchedHeadsAreAnError) {
  ModelBuilder m("g", 23);
  m.input("Q", F32, {1, 3, 4, 8}).input("K", F32, {1, 2, 6, 8}).input("V", F32, {1, 2, 6, 8}).output("Y", F32, {1, 3, 4, 8}, true);
  m.node("Attention", {"Q", "K", "V"}, {"Y"}, "attn");
  expect_error([&] { parse(m); }, {"attn", "3 query heads do not group over 2 kv heads"});
}

// FlexAttention (ai.onnx.preview), GQA 8 query heads over 2 kv heads, 4 queries, 6 keys, size 16:
// scores and context 2*8*4*6*16 = 6144 MACs each; score_mod and prob_mod are element-wise stages
// around the softmax.
TEST(Attention, FlexAttentionLowersAsAttentionWithItsModifierStages) {
  ModelBuilder m("g", 26);
  m.opset("ai.onnx.preview", 1);
  m.input("Q", F32, {2, 8, 4, 16}).input("K", F32, {2, 2, 6, 16}).input("V", F32, {2, 2, 6, 16}).output("Y", F32);
  auto n = m.node("FlexAttention", {"Q", "K", "V"}, {"Y"}, "flex", "ai.onnx.preview");
  for (const char* mod : {"score_mod", "prob_mod"}) {
    auto* a = n.proto().add_attribute();
    a->set_name(mod);
    a->set_type(onnx::AttributeProto::GRAPH);
  }
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 8, 4, 16}));
  EXPECT_EQ(total_macs(w), 2 * 6144);
  EXPECT_EQ(sizes(node(w, "flex_scores")), (std::vector<std::int64_t>{2, 2, 4, 4, 6, 16}));
  EXPECT_EQ(node(w, "flex_score_mod").type, "ScoreMod");
  EXPECT_EQ(node(w, "flex_prob_mod").outputs[0]->name, node(w, "flex").inputs[0]->name);
}

TEST(RMSNormalization, NormalisesFromItsAxisToTheLast) {
  ModelBuilder m("g", 23);
  m.input("X", F32, {2, 3, 4}).initializer("W", F32, {3, 4}).output("Y", F32);
  m.node("RMSNormalization", {"X", "W"}, {"Y"}, "rms").attr("axis", 1);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_EQ(node(w, "rms").kind, NodeKind::Normalization);
  EXPECT_EQ(node(w, "rms").reduction_axes, (std::vector<int>{1, 2}));
}

// (1, 2 heads, 3 tokens, 8) with a (10, 4) cache chosen by position_ids: loops (b, s, h, d) =
// (1, 3, 2, 8); the caches read at (routed row 0, d mod 4).
TEST(RotaryEmbedding, RotatesEachHeadWithCacheRowsChosenByPosition) {
  ModelBuilder m("g", 23);
  m.input("X", F32, {1, 2, 3, 8}).input("cos", F32, {10, 4}).input("sin", F32, {10, 4}).input("pos", I64, {1, 3});
  m.output("Y", F32);
  m.node("RotaryEmbedding", {"X", "cos", "sin", "pos"}, {"Y"}, "rope");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{1, 2, 3, 8}));
  const auto& n = node(w, "rope");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 2, 8}));
  EXPECT_EQ(map_of(n, 0), "(d0, d2, d1, d3)");
  EXPECT_EQ(map_of(n, 1), "(0, (d3 mod 4))");
  EXPECT_EQ(access_relation(n, 1).kind, AccessKind::DataDependent);
  EXPECT_EQ(access_relation(n, 1).index_tensor, "pos");
}

}  // namespace
