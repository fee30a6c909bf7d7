// Decoder layer and decoder stack. Expected unique-dim counts are derived by hand from the
// unification rules of workload-spec §1.7 (see each test), not read off our output.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

TEST(DecoderLayer, StructureOfAMultiHeadLayer) {
  const Workload w = build(decoder_layer_spec(), {{"seq", "32"}, {"heads", "4"}, {"d_head", "16"}, {"d_ff", "96"}});
  // x; 2 x (gamma, rmsnorm, scale); Wq/Wk/Wv/Wo + 6 MatMuls + softmax; 2 residual Adds;
  // W_gate/W_up/W_down + 5 SwiGLU ops; the OutEdge.
  EXPECT_EQ(w.size(), 29u);
  EXPECT_EQ(count(w, NodeKind::InEdge), 10u);
  EXPECT_EQ(count(w, NodeKind::Normalization), 3u);  // two RMSNorms and the softmax
  EXPECT_EQ(count(w, NodeKind::OutEdge), 1u);
  EXPECT_EQ(w.computation_nodes().size(), 18u);
  EXPECT_EQ(total_dims(w), 70);
  // Classes: batch, sequence (queries and keys meet: q, k and v are all projected from the same
  // normed activation, a produced tensor), heads, the q/k head dim, the v head dim, d_model read
  // by the projections (tied to the graph input only through parallel bare reads, which do not
  // unify), d_model after out_proj (residual stream, SwiGLU input and output), and d_ff.
  EXPECT_EQ(unique_dims(w), 8u);

  const Node& norm = w.node_by_name("attn_norm_rmsnorm");
  EXPECT_EQ(norm.type, "RMSNormalization");
  EXPECT_EQ(norm.reduction_axes, (std::vector<int>{2}));
  EXPECT_EQ(norm.inputs[0]->name, "x");
  const Node& res = w.node_by_name("attn_residual");
  EXPECT_EQ(res.type, "Add");
  EXPECT_EQ(res.inputs[0]->name, "x");
  EXPECT_EQ(res.inputs[1]->name, "attn_y");
  const Node& ffn_norm = w.node_by_name("ffn_norm_rmsnorm");
  EXPECT_EQ(ffn_norm.inputs[0]->name, "h");
  const Node& gate = w.node_by_name("ffn_gate_proj");
  EXPECT_EQ(gate.inputs[0]->name, "ffn_norm_y");
  EXPECT_EQ(gate.operand_mapping, (std::vector<AffineMap>{m(4, {0, 1, 3}), m(4, {3, 2}), m(4, {0, 1, 2})}));
  EXPECT_EQ(kinds(gate), "PPPR");
  EXPECT_EQ(loop_sizes(gate), (std::vector<std::int64_t>{1, 32, 96, 64}));
  const Node& out = w.node_by_name("ffn_residual");
  EXPECT_EQ(out.inputs[0]->name, "h");
  EXPECT_EQ(out.inputs[1]->name, "ffn_y");
  EXPECT_EQ(w.nodes().back().kind, NodeKind::OutEdge);
  EXPECT_EQ(w.nodes().back().inputs[0]->name, "out");

  // The attention inside is the attention block under a prefix.
  const Workload attn = build(attention_spec(), {{"seq", "32"}, {"heads", "4"}, {"d_head", "16"}});
  for (const char* n : {"proj_q", "scores", "context", "out_proj"}) {
    EXPECT_EQ(w.node_by_name(std::string("attn_") + n).operand_mapping, attn.node_by_name(n).operand_mapping) << n;
    EXPECT_EQ(loop_sizes(w.node_by_name(std::string("attn_") + n)), loop_sizes(attn.node_by_name(n))) << n;
  }
}

TEST(DecoderLayer, GroupedQueryLayer) {
  const Workload w = build(decoder_layer_spec(), {{"seq", "32"}, {"heads", "8"}, {"kv_heads", "2"}, {"d_head", "16"}});
  EXPECT_EQ(w.size(), 29u);
  // As the multi-head layer, with the head axis split into groups and reps: one more class.
  EXPECT_EQ(unique_dims(w), 9u);
  const Node& pq = w.node_by_name("attn_proj_q");
  EXPECT_EQ(pq.outputs[0]->shape, (std::vector<std::int64_t>{1, 2, 4, 32, 16}));
  EXPECT_EQ(kinds(pq), "PPPPPR");
  const Node& pk = w.node_by_name("attn_proj_k");
  EXPECT_EQ(pk.outputs[0]->shape, (std::vector<std::int64_t>{1, 2, 32, 16}));
  const Workload gqa = build(gqa_spec(), {{"groups", "2"}, {"reps", "4"}, {"seq", "32"}, {"d_head", "16"}});
  for (const char* n : {"scores", "context"})
    EXPECT_EQ(w.node_by_name(std::string("attn_") + n).operand_mapping, gqa.node_by_name(n).operand_mapping) << n;
  const Node& op = w.node_by_name("attn_out_proj");
  EXPECT_EQ(kinds(op), "PPPRRR");
  EXPECT_EQ(op.outputs[0]->shape, (std::vector<std::int64_t>{1, 32, 128}));
  EXPECT_THROW((void)build(decoder_layer_spec(), {{"heads", "8"}, {"kv_heads", "3"}}), Error);
}

TEST(DecoderStack, LayersChainThroughTheResidualStream) {
  for (int layers : {1, 2, 4}) {
    SCOPED_TRACE(layers);
    const Workload w = build(decoder_stack_spec(), {{"layers", std::to_string(layers)}, {"seq", "16"}, {"heads", "2"},
                                                    {"d_head", "8"}, {"d_ff", "32"}});
    EXPECT_EQ(w.size(), static_cast<std::size_t>(2 + 27 * layers));
    EXPECT_EQ(total_dims(w), 70 * layers);
    // Batch, sequence and the residual-stream d_model are shared by every layer (a produced tensor
    // feeds the next layer); layer 0's projection input dim stays apart (it hangs off the graph
    // input); heads, both head dims and d_ff are per layer: 4 + 4 * layers.
    EXPECT_EQ(unique_dims(w), static_cast<std::size_t>(4 + 4 * layers));
  }
  const Workload w = build(decoder_stack_spec(), {{"layers", "2"}});
  EXPECT_EQ(w.node_by_name("layer1_attn_norm_rmsnorm").inputs[0]->name, "layer0_out");
  EXPECT_EQ(w.node_by_name("layer1_attn_residual").inputs[0]->name, "layer0_out");
  EXPECT_EQ(w.nodes().back().inputs[0]->name, "layer1_out");
  EXPECT_NE(w.node_by_name("layer0_attn_Wq").outputs[0], w.node_by_name("layer1_attn_Wq").outputs[0]);
}

TEST(DecoderStack, GroupedQueryStack) {
  for (int layers : {1, 3}) {
    SCOPED_TRACE(layers);
    const Workload w = build(decoder_stack_spec(), {{"layers", std::to_string(layers)}, {"seq", "16"}, {"heads", "4"},
                                                    {"kv_heads", "2"}, {"d_head", "8"}, {"d_ff", "32"}});
    // As the multi-head stack, with groups and reps per layer instead of heads: 4 + 5 * layers.
    EXPECT_EQ(unique_dims(w), static_cast<std::size_t>(4 + 5 * layers));
  }
}

TEST(DecoderStack, ThirtyTwoLayersBuild) {
  const Workload w = build(decoder_stack_spec(), {{"layers", "32"}});
  EXPECT_EQ(w.size(), 2u + 27u * 32u);
  EXPECT_EQ(unique_dims(w), 4u + 4u * 32u);
}

}  // namespace
}  // namespace stream::blocks::test
