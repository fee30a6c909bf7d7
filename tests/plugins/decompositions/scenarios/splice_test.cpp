// Decompositions splice into their workload in place (what `--decompose` will do): replacing each
// decomposable node by its sub-operators gives a valid workload whose consumers are untouched
// (workload-spec §7.15 on the attention block, and every normalization of a decoder stack).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <stream/ir/dimensions.hpp>
#include <stream/ir/iteration_space.hpp>

#include "blocks.hpp"
#include "decompositions.hpp"

namespace stream::decompositions {
namespace {

/// Replaces, in insertion order, every node with a registered decomposition by its sub-operators.
Workload expand(const Workload& w) {
  std::map<std::string, Decomposer> table;
  for (auto& [op, fn] : all_decompositions()) table.emplace(op, fn);
  std::vector<Node> nodes;
  for (const auto& n : w.nodes()) {
    const auto it = n.has_iteration_space() ? table.find(n.type) : table.end();
    if (it == table.end()) {
      nodes.push_back(n);
      continue;
    }
    const Workload d = it->second(n);
    for (const auto& s : d.nodes())
      if (s.has_iteration_space()) nodes.push_back(s);
  }
  return Workload(std::move(nodes));
}

/// The reference's collapse_fused_kernels (§5.2) for the groups of one tag: rebuilds the
/// normalization from its sub-operators (x: first input not produced in the group; y: first output
/// not consumed in it; axes: the positions the first reduce sub-op's output map drops).
Node collapse(const Workload& w, const std::string& tag) {
  std::vector<const Node*> group;
  std::set<std::string> produced, consumed;
  for (const auto& n : w.nodes())
    if (n.fused_kernel == tag) {
      group.push_back(&n);
      for (const auto& t : n.outputs) produced.insert(t->name);
      for (const auto& t : n.inputs) consumed.insert(t->name);
    }
  TensorPtr x, y;
  std::vector<int> axes;
  for (const Node* n : group) {
    for (const auto& t : n->inputs)
      if (!x && !produced.count(t->name)) x = t;
    for (const auto& t : n->outputs)
      if (!y && !consumed.count(t->name)) y = t;
    const bool reduce = n->type == "ReduceMax" || n->type == "ReduceSum" || n->type == "ReduceSumSquare";
    if (reduce && axes.empty()) {
      const AffineMap& out = n->operand_mapping.back();
      for (int d = 0; d < n->num_dims(); ++d)
        if (!out.uses_dim(d)) axes.push_back(d);
    }
  }
  const auto colon = tag.find(':');
  return make_normalization(tag.substr(colon + 1), tag.substr(0, colon), x, y, axes);
}

Workload block(const BlockSpec& spec, const std::map<std::string, std::string>& params) {
  return spec.build(spec.resolve(params));
}

TEST(Splice, AttentionSoftmaxExpandsInPlace) {
  const Workload attn = block(blocks::attention_spec(), {{"heads", "2"}, {"seq", "8"}, {"d_head", "8"}});
  const Workload x = expand(attn);
  EXPECT_TRUE(x.nodes_of_kind(NodeKind::Normalization).empty());
  EXPECT_EQ(x.size(), attn.size() + 3);
  std::vector<std::string> sub;
  for (const auto& n : x.nodes())
    if (n.fused_kernel) {
      EXPECT_EQ(*n.fused_kernel, "Softmax:softmax");
      sub.push_back(n.name);
    }
  EXPECT_EQ(sub, (std::vector<std::string>{"softmax_max", "softmax_exp", "softmax_sum", "softmax_div"}));
  for (const char* r : {"softmax_max", "softmax_sum"}) {
    const auto kinds = iterator_kinds(x.node_by_name(r));
    EXPECT_EQ(kinds[3], IteratorKind::Reduction) << r;
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), IteratorKind::Reduction), 1) << r;
  }
  // The Div writes the tensor the context reads; the graph stays connected through it.
  const Node& div = x.node_by_name("softmax_div");
  const Node& ctx = x.node_by_name("context");
  EXPECT_EQ(ctx.inputs[0]->name, div.outputs[0]->name);
  EXPECT_EQ(x.producer_of(ctx.inputs[0]->name), x.index_of("softmax_div"));
  EXPECT_EQ(x.edges().size(), attn.edges().size() + 5);  // scores->max/exp, max->exp, exp->sum/div, sum->div
  // The key axis is still one axis: the expansion does not split or add unified dims.
  EXPECT_EQ(x.unified_dimensions().num_unique(), attn.unified_dimensions().num_unique());
}

TEST(Splice, CollapseRoundTripIsExact) {
  const std::vector<std::pair<BlockSpec, std::map<std::string, std::string>>> cases = {
      {blocks::attention_spec(), {{"heads", "2"}, {"seq", "8"}, {"d_head", "8"}}},
      {blocks::gqa_spec(), {{"groups", "2"}, {"reps", "2"}, {"seq", "8"}, {"d_head", "8"}}},
      {blocks::rmsnorm_spec(), {}},
      {blocks::decoder_layer_spec(), {{"seq", "8"}, {"heads", "2"}, {"d_head", "8"}, {"d_ff", "16"}}}};
  for (const auto& [spec, params] : cases) {
    SCOPED_TRACE(spec.key);
    const Workload w = block(spec, params);
    const Workload x = expand(w);
    for (std::size_t idx : w.nodes_of_kind(NodeKind::Normalization)) {
      const Node& orig = w.node(idx);
      const Node back = collapse(x, orig.type + ":" + orig.name);
      EXPECT_EQ(back.type, orig.type);
      EXPECT_EQ(back.name, orig.name);
      EXPECT_EQ(back.reduction_axes, orig.reduction_axes);
      EXPECT_EQ(back.inputs[0]->name, orig.inputs[0]->name);
      EXPECT_EQ(back.outputs[0]->name, orig.outputs[0]->name);
      EXPECT_EQ(back.num_dims(), orig.num_dims());
    }
  }
}

TEST(Splice, EveryNormalizationOfADecoderStack) {
  const Workload w = block(blocks::decoder_stack_spec(), {{"layers", "3"}, {"seq", "16"}, {"heads", "2"},
                                                          {"d_head", "8"}, {"d_ff", "32"}});
  const Workload x = expand(w);
  EXPECT_TRUE(x.nodes_of_kind(NodeKind::Normalization).empty());
  // Per layer: two RMSNorms (+2 nodes each: ReduceSumSquare, Sqrt, Div) and a softmax (+3).
  EXPECT_EQ(x.size(), w.size() + 3 * (2 * 2 + 3));
  std::map<std::string, int> per_kernel;
  for (const auto& n : x.nodes())
    if (n.fused_kernel) ++per_kernel[*n.fused_kernel];
  EXPECT_EQ(per_kernel.size(), 9u);
  EXPECT_EQ(per_kernel["Softmax:layer2_attn_softmax"], 4);
  EXPECT_EQ(per_kernel["RMSNormalization:layer1_ffn_norm_rmsnorm"], 3);
  EXPECT_EQ(x.node_by_name("layer1_ffn_norm_scale").inputs[0]->name, "layer1_ffn_norm_normed");
  EXPECT_EQ(x.producer_of("layer1_ffn_norm_normed"), x.index_of("layer1_ffn_norm_rmsnorm_div"));
}

TEST(Splice, FlashAttentionBlocksExpandIntoAChain) {
  const Workload w = block(blocks::flash_attention_spec(), {});
  const Workload x = expand(w);
  EXPECT_EQ(x.size(), w.size() + 4 * 8);
  // Block 1's running max reads block 0's (the m output of the Maximum sub-op).
  const Node& m1 = x.node_by_name("attention_block1_m");
  EXPECT_EQ(x.producer_of(m1.inputs[0]->name), x.index_of("attention_block0_m"));
  EXPECT_EQ(x.producer_of("attention_o3"), x.index_of("attention_block3_o"));
}

}  // namespace
}  // namespace stream::decompositions
