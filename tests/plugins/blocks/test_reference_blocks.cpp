// Every reference block against workload-spec §4: node order, shapes, maps, iterator kinds, dtype
// and the measured node / edge / total-dim / unique-dim counts; plus the acceptance cases of
// §7.17, §7.20 and §7.22.
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

TEST(MambaBlock, WiringKindsAndFigures) {
  const Workload w = build(mamba_spec());  // L=256 D=512 N=16
  EXPECT_EQ(names(w), (std::vector<std::string>{"delta", "A", "B", "C", "x", "D_skip", "h_prev", "dA", "Abar", "dB",
                                                 "dBx", "scan", "readout", "skip", "out", "y"}));
  EXPECT_EQ(w.edges().size(), 17u);
  EXPECT_EQ(total_dims(w), 22);
  EXPECT_EQ(unique_dims(w), 3u);
  EXPECT_EQ(w.unified_dimensions().relations.size(), 19u);
  auto in_names = [&](const std::string& node) {
    std::vector<std::string> out;
    for (const auto& t : w.node_by_name(node).inputs) out.push_back(t->name);
    out.push_back("->" + w.node_by_name(node).outputs.at(0)->name);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(in_names("dA"), (V{"delta", "A", "->dA"}));
  EXPECT_EQ(in_names("Abar"), (V{"dA", "->Abar"}));
  EXPECT_EQ(w.node_by_name("Abar").type, "Exp");
  EXPECT_EQ(in_names("dB"), (V{"delta", "B", "->dB"}));
  EXPECT_EQ(in_names("dBx"), (V{"dB", "x", "->dBx"}));
  EXPECT_EQ(in_names("scan"), (V{"Abar", "h_prev", "dBx", "->h"}));
  EXPECT_EQ(in_names("readout"), (V{"C", "h", "->y_ssm"}));
  EXPECT_EQ(in_names("skip"), (V{"D_skip", "x", "->Dx"}));
  EXPECT_EQ(in_names("out"), (V{"y_ssm", "Dx", "->y"}));
  const Node& scan = w.node_by_name("scan");
  EXPECT_EQ(scan.type, "SelectiveScan");
  EXPECT_EQ(kinds(scan), "SPP");
  EXPECT_EQ(loop_sizes(scan), (Shape{256, 512, 16}));
  EXPECT_EQ(kinds(w.node_by_name("readout")), "PPR");
  EXPECT_EQ(positions(w.node_by_name("readout"), IteratorKind::Reduction), (std::vector<int>{2}));
  EXPECT_EQ(kinds(w.node_by_name("dA")), "PPP");
  EXPECT_EQ(w.node_by_name("dA").operand_mapping[1], m(3, {1, 2}));
  EXPECT_EQ(w.node_by_name("skip").operand_mapping[0], m(2, {1}));
}

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

TEST(SwiGluBlock, MatchesSpecFigures) {
  const Workload w = build(swiglu_spec());  // t=16 d=64 f=128
  EXPECT_EQ(names(w), (std::vector<std::string>{"x", "W_gate", "W_up", "W_down", "gate_proj", "up_proj", "silu",
                                                 "gate_mul", "down_proj", "y"}));
  EXPECT_EQ(w.edges().size(), 10u);
  EXPECT_EQ(total_dims(w), 13);
  EXPECT_EQ(unique_dims(w), 4u);
  EXPECT_EQ(w.unified_dimensions().relations.size(), 9u);
  EXPECT_EQ(w.node_by_name("gate_proj").type, "MatMul");
  EXPECT_EQ(w.node_by_name("down_proj").type, "MatMul");
  EXPECT_EQ(w.node_by_name("silu").type, "Silu");
  EXPECT_EQ(w.node_by_name("gate_mul").type, "Mul");
  EXPECT_EQ(w.node_by_name("silu").outputs[0]->name, "silu");
  EXPECT_EQ(w.node_by_name("gate_mul").outputs[0]->name, "hidden");
  const Node& gp = w.node_by_name("gate_proj");
  EXPECT_EQ(gp.operand_mapping, (std::vector<AffineMap>{m(3, {0, 2}), m(3, {2, 1}), m(3, {0, 1})}));
  EXPECT_EQ(kinds(gp), "PPR");
  EXPECT_EQ(loop_sizes(gp), (Shape{16, 128, 64}));
  EXPECT_EQ(loop_sizes(w.node_by_name("down_proj")), (Shape{16, 64, 128}));
  for (const auto& n : w.nodes())
    if (n.has_iteration_space()) {
      EXPECT_TRUE(positions(n, IteratorKind::Sequential).empty()) << n.name;
    }
}

TEST(RmsNormBlock, MatchesSpecFigures) {
  const Workload w = build(rmsnorm_spec());
  EXPECT_EQ(names(w), (std::vector<std::string>{"x", "gamma", "rmsnorm", "scale", "y"}));
  EXPECT_EQ(w.edges().size(), 4u);
  EXPECT_EQ(unique_dims(w), 2u);
  const Node& n = w.node_by_name("rmsnorm");
  EXPECT_EQ(n.kind, NodeKind::Normalization);
  EXPECT_EQ(n.type, "RMSNormalization");
  EXPECT_EQ(n.reduction_axes, (std::vector<int>{1}));
  EXPECT_EQ(n.outputs[0]->name, "normed");
  EXPECT_EQ(w.node_by_name("scale").operand_mapping, (std::vector<AffineMap>{m(2, {0, 1}), m(2, {1}), m(2, {0, 1})}));
}

TEST(MoeBlock, RoutingIsDataDependent) {
  const Workload w = build(moe_spec());  // T=32 D=64 F=128 E=4 C=16
  EXPECT_EQ(names(w), (std::vector<std::string>{"x", "W_router", "W_expert_in", "W_expert_out", "router", "dispatch",
                                                 "expert_in", "expert_silu", "expert_out", "combine", "y"}));
  EXPECT_EQ(w.edges().size(), 12u);
  EXPECT_EQ(total_dims(w), 22);
  EXPECT_EQ(unique_dims(w), 6u);
  const Node& d = w.node_by_name("dispatch");
  EXPECT_EQ(d.type, "MoEDispatch");
  EXPECT_EQ(kinds(d), "PPPR");
  EXPECT_EQ(d.outputs[0]->shape, (Shape{4, 16, 64}));
  const AccessRelation a = access_relation(d, 0);
  EXPECT_EQ(a.kind, AccessKind::DataDependent);
  EXPECT_FALSE(a.is_static());
  EXPECT_EQ(a.index_tensor, "router_logits");
  EXPECT_EQ(access_relation(d, 1).kind, AccessKind::Affine);
  EXPECT_EQ(access_relation(w.node_by_name("expert_in"), 0).kind, AccessKind::Affine);
  const Node& c = w.node_by_name("combine");
  EXPECT_EQ(kinds(c), "PPRR");
  EXPECT_EQ(access_relation(c, 0).kind, AccessKind::DataDependent);
  EXPECT_EQ(access_relation(c, 0).index_tensor, "router_logits");
  EXPECT_EQ(c.operand_mapping[0], m(4, {2, 3, 1}));
}

TEST(MoeBlock, CapacityParameter) {
  for (const char* cap : {"4", "8"}) {
    const Workload w = build(moe_spec(), {{"tokens", "8"}, {"experts", "2"}, {"capacity", cap}});
    EXPECT_EQ(w.node_by_name("dispatch").outputs[0]->shape[1], std::stoll(cap));
    EXPECT_EQ(w.node_by_name("dispatch").outputs[0]->shape[0], 2);
  }
}

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
