// Decompositions (workload-spec §5.1, §5.3; acceptance cases §7.13-§7.15): sub-operator types,
// order, maps, shapes and iterator kinds; fused-kernel tags; in-place splicing (original input
// and output tensors); and that the decomposed iteration spaces cover the original node's.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include <stream/error.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/registry/registries.hpp>

#include "blocks.hpp"
#include "decompositions.hpp"

namespace stream::decompositions {
namespace {

using Shape = std::vector<std::int64_t>;

Workload block(const BlockSpec& spec, const std::map<std::string, std::string>& params) {
  return spec.build(spec.resolve(params));
}

std::vector<const Node*> subops(const Workload& w) {
  std::vector<const Node*> out;
  for (const auto& n : w.nodes())
    if (n.has_iteration_space()) out.push_back(&n);
  return out;
}

std::vector<std::string> types(const Workload& w) {
  std::vector<std::string> out;
  for (const Node* n : subops(w)) out.push_back(n->type);
  return out;
}

const Node& by_type(const Workload& w, const std::string& type) {
  for (const Node* n : subops(w))
    if (n->type == type) return *n;
  throw std::runtime_error("no sub-op of type " + type);
}

std::vector<int> kind_positions(const Node& n, IteratorKind kind) {
  std::vector<int> out;
  const auto ks = iterator_kinds(n);
  for (std::size_t i = 0; i < ks.size(); ++i)
    if (ks[i] == kind) out.push_back(static_cast<int>(i));
  return out;
}

/// The index box (per axis [lo, hi]) of `tensor` that node `n` touches, or empty if it does not.
std::vector<Interval> touched(const Node& n, const Tensor& tensor) {
  const AffineMap* map = n.mapping_of(tensor);
  if (map == nullptr) return {};
  return map->ranges(loop_sizes(n));
}

/// Checks the decomposition can replace `origin` in place and covers its iteration space: it
/// reads the origin's inputs through InEdges and writes its outputs to OutEdges; every sub-op is
/// tagged; every index of every origin operand that the origin touches is touched by a sub-op
/// (per axis, the hull over the sub-ops equals the origin's range; all maps here are bare dims
/// or constants, so hulls are exact), and no sub-op reads or writes outside the tensors' bounds.
void expect_replaces(const Node& origin, const Workload& d) {
  SCOPED_TRACE(origin.name);
  const std::string tag = origin.type + ":" + origin.name;
  for (const Node* s : subops(d)) {
    ASSERT_TRUE(s->fused_kernel.has_value()) << s->name;
    EXPECT_EQ(*s->fused_kernel, tag) << s->name;
    for (std::size_t i = 0; i < s->num_operands(); ++i) {
      const auto r = s->operand_mapping[i].ranges(loop_sizes(*s));
      for (std::size_t a = 0; a < r.size(); ++a) {
        EXPECT_GE(r[a].lo, 0) << s->name << " operand " << i;
        EXPECT_LT(r[a].hi, s->operand(i)->shape[a]) << s->name << " operand " << i;
      }
    }
  }
  std::set<const Tensor*> in_edges, out_edges;
  for (std::size_t idx : d.nodes_of_kind(NodeKind::InEdge)) in_edges.insert(d.node(idx).outputs[0].get());
  for (std::size_t idx : d.nodes_of_kind(NodeKind::OutEdge)) out_edges.insert(d.node(idx).inputs[0].get());
  for (const auto& t : origin.inputs) EXPECT_TRUE(in_edges.count(t.get())) << t->name;
  for (const auto& t : origin.outputs) EXPECT_TRUE(out_edges.count(t.get())) << t->name;
  EXPECT_EQ(out_edges.size(), origin.outputs.size());

  const auto origin_sizes = loop_sizes(origin);
  for (std::size_t i = 0; i < origin.num_operands(); ++i) {
    const Tensor& t = *origin.operand(i);
    const auto want = origin.operand_mapping[i].ranges(origin_sizes);
    std::vector<Interval> hull;
    for (const Node* s : subops(d)) {
      const auto got = touched(*s, t);
      if (got.empty() && t.rank() > 0) continue;
      if (got.size() != want.size()) continue;
      if (hull.empty()) {
        hull = got;
      } else {
        for (std::size_t a = 0; a < got.size(); ++a) {
          hull[a].lo = std::min(hull[a].lo, got[a].lo);
          hull[a].hi = std::max(hull[a].hi, got[a].hi);
        }
      }
    }
    EXPECT_EQ(hull, want) << "operand " << t.name;
  }
  // Every origin loop is iterated in full by some sub-op: each origin dim indexes an operand axis
  // as a bare dim, so the covered operand ranges above imply it; check the extents directly too.
  std::multiset<std::int64_t> sub_extents;
  for (const Node* s : subops(d))
    for (auto e : loop_sizes(*s)) sub_extents.insert(e);
  for (auto e : origin_sizes) EXPECT_TRUE(sub_extents.count(e)) << "origin loop extent " << e;
}

// --- Softmax ------------------------------------------------------------------------------

TEST(SoftmaxDecomposition, AttentionSoftmax) {
  const Workload attn = block(blocks::attention_spec(), {{"heads", "2"}, {"seq", "8"}, {"d_head", "8"}});
  const Node& sm = attn.node_by_name("softmax");
  const Workload d = decompose_softmax(sm);
  EXPECT_EQ(types(d), (std::vector<std::string>{"ReduceMax", "Exp", "ReduceSum", "Div"}));
  const auto ops = subops(d);
  EXPECT_EQ(ops[0]->name, "softmax_max");
  EXPECT_EQ(ops[1]->name, "softmax_exp");
  EXPECT_EQ(ops[2]->name, "softmax_sum");
  EXPECT_EQ(ops[3]->name, "softmax_div");
  EXPECT_EQ(ops[0]->outputs[0]->shape, (Shape{1, 2, 8}));
  EXPECT_EQ(ops[0]->operand_mapping[1].str(), "(d0, d1, d2, d3) -> (d0, d1, d2)");
  EXPECT_EQ(ops[0]->operand_mapping[0], AffineMap::identity(4));
  // Exp reads x and the broadcast max (the subtraction is fused); Div reads exp and the broadcast sum.
  EXPECT_EQ(ops[1]->inputs[0], sm.inputs[0]);
  EXPECT_EQ(ops[1]->inputs[1], ops[0]->outputs[0]);
  EXPECT_EQ(ops[1]->operand_mapping[1].str(), "(d0, d1, d2, d3) -> (d0, d1, d2)");
  EXPECT_EQ(ops[3]->inputs[1], ops[2]->outputs[0]);
  // §7.14/§7.15: the reductions reduce exactly the key axis; Exp and Div are all PARALLEL.
  EXPECT_EQ(kind_positions(*ops[0], IteratorKind::Reduction), (std::vector<int>{3}));
  EXPECT_EQ(kind_positions(*ops[2], IteratorKind::Reduction), (std::vector<int>{3}));
  EXPECT_EQ(kind_positions(*ops[1], IteratorKind::Parallel).size(), 4u);
  EXPECT_EQ(kind_positions(*ops[3], IteratorKind::Parallel).size(), 4u);
  // The Div writes the node's own output, which the attention's context reads.
  EXPECT_EQ(ops[3]->outputs[0], sm.outputs[0]);
  EXPECT_EQ(attn.node_by_name("context").inputs[0], ops[3]->outputs[0]);
  EXPECT_EQ(*ops[0]->fused_kernel, "Softmax:softmax");
  EXPECT_EQ(d.nodes().front().kind, NodeKind::InEdge);
  EXPECT_EQ(d.nodes().back().name, "softmax_out");
  expect_replaces(sm, d);
}

TEST(SoftmaxDecomposition, DirectlyBuiltNodeOnEveryAxis) {
  const auto x = make_tensor("X", DType::f32, {2, 8, 16, 16});
  const auto y = make_tensor("Y", DType::f32, {2, 8, 16, 16});
  for (int axis = 0; axis < 4; ++axis) {
    SCOPED_TRACE(axis);
    const Node sm = make_normalization("sm", "Softmax", x, y, {axis});
    const Workload d = decompose_softmax(sm);
    Shape red = {2, 8, 16, 16};
    red.erase(red.begin() + axis);
    EXPECT_EQ(by_type(d, "ReduceMax").outputs[0]->shape, red);
    EXPECT_EQ(by_type(d, "ReduceMax").outputs[0]->dtype, DType::f32);
    EXPECT_EQ(kind_positions(by_type(d, "ReduceMax"), IteratorKind::Reduction), (std::vector<int>{axis}));
    EXPECT_EQ(kind_positions(by_type(d, "ReduceSum"), IteratorKind::Reduction), (std::vector<int>{axis}));
    expect_replaces(sm, d);
  }
}

TEST(SoftmaxDecomposition, RejectsMalformedNodes) {
  const auto x = make_tensor("X", DType::f32, {4, 10});
  const auto y = make_tensor("Y", DType::f32, {4, 10});
  Node bad = make_normalization("sm", "Softmax", x, y, {1});
  bad.reduction_axes = {};
  EXPECT_THROW((void)decompose_softmax(bad), Error);
  bad.reduction_axes = {2};
  EXPECT_THROW((void)decompose_softmax(bad), Error);
  const auto wrong = make_tensor("W", DType::f32, {4, 9});
  Node mismatched = make_computation("sm", "Softmax", {x}, {wrong}, {AffineMap::identity(2), AffineMap::identity(2)});
  mismatched.reduction_axes = {1};
  try {
    (void)decompose_softmax(mismatched);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().node, "sm");
  }
}

TEST(SoftmaxDecomposition, ANodeReadingThroughAFoldedReshapeKeepsItsMaps) {
  // Swin's masked scores: the Softmax reads X [1, 4, 10] as [4, 10] (a reshape dropping the unit
  // batch, folded into the node), over its loops (4, 10), and writes Y [4, 10]. Every
  // sub-operator iterates over those loops; the reads of X keep the node's (0, d0, d1).
  const auto x = make_tensor("X", DType::f32, {1, 4, 10});
  const auto y = make_tensor("Y", DType::f32, {4, 10});
  Node sm = make_normalization("sm", "Softmax", y, y, {1});
  sm.inputs = {x};
  sm.operand_mapping[0] = AffineMap(2, {AffineExpr::constant(0), AffineExpr::dim(0), AffineExpr::dim(1)});
  const Workload d = decompose_softmax(sm);
  EXPECT_EQ(by_type(d, "ReduceMax").operand_mapping[0].str(), "(d0, d1) -> (0, d0, d1)");
  EXPECT_EQ(by_type(d, "Exp").operand_mapping[0].str(), "(d0, d1) -> (0, d0, d1)");
  EXPECT_EQ(by_type(d, "Exp").outputs[0]->shape, (Shape{4, 10}));
  EXPECT_EQ(by_type(d, "ReduceMax").outputs[0]->shape, (Shape{4}));
  EXPECT_EQ(by_type(d, "Div").operand_mapping[2].str(), "(d0, d1) -> (d0, d1)");
  expect_replaces(sm, d);
  // A read that does not visit X element by element is not a normalization.
  Node wide = sm;
  wide.inputs = {make_tensor("X2", DType::f32, {2, 4, 10})};
  EXPECT_THROW((void)decompose_softmax(wide), Error);
}

// --- LpNormalization, LayerNormalization, RMSNormalization --------------------------------

TEST(LpNormalizationDecomposition, SumSquareSqrtDiv) {
  const auto x = make_tensor("X", DType::bf16, {4, 16});
  const auto y = make_tensor("Y", DType::bf16, {4, 16});
  const Node n = make_normalization("lp", "LpNormalization", x, y, {1});
  const Workload d = decompose_lp_normalization(n);
  EXPECT_EQ(types(d), (std::vector<std::string>{"ReduceSumSquare", "Sqrt", "Div"}));
  const Node& ss = by_type(d, "ReduceSumSquare");
  EXPECT_EQ(ss.outputs[0]->shape, (Shape{4}));
  EXPECT_EQ(kind_positions(ss, IteratorKind::Reduction), (std::vector<int>{1}));
  EXPECT_EQ(loop_sizes(by_type(d, "Sqrt")), (Shape{4}));
  EXPECT_EQ(by_type(d, "Div").operand_mapping[1].str(), "(d0, d1) -> (d0)");
  EXPECT_EQ(*ss.fused_kernel, "LpNormalization:lp");
  expect_replaces(n, d);
}

TEST(LayerNormalizationDecomposition, OverTrailingAxes) {
  const auto x = make_tensor("X", DType::f32, {2, 8, 32});
  const auto y = make_tensor("Y", DType::f32, {2, 8, 32});
  const Node n = make_normalization("ln", "LayerNormalization", x, y, {1, 2});
  const Workload d = decompose_layer_normalization(n);
  EXPECT_EQ(types(d), (std::vector<std::string>{"ReduceMean", "Sub", "ReduceSumSquare", "Sqrt", "Div"}));
  EXPECT_EQ(by_type(d, "ReduceMean").outputs[0]->shape, (Shape{2}));
  EXPECT_EQ(kind_positions(by_type(d, "ReduceMean"), IteratorKind::Reduction), (std::vector<int>{1, 2}));
  EXPECT_EQ(kind_positions(by_type(d, "ReduceSumSquare"), IteratorKind::Reduction), (std::vector<int>{1, 2}));
  EXPECT_EQ(by_type(d, "ReduceSumSquare").inputs[0], by_type(d, "Sub").outputs[0]);  // variance of centred x
  EXPECT_EQ(by_type(d, "Sub").operand_mapping[1].str(), "(d0, d1, d2) -> (d0)");
  EXPECT_EQ(by_type(d, "Div").outputs[0], y);
  expect_replaces(n, d);
}

TEST(LayerNormalizationDecomposition, WithScaleAndBias) {
  const auto x = make_tensor("X", DType::f32, {16, 64});
  const auto scale = make_tensor("S", DType::f32, {64});
  const auto bias = make_tensor("B", DType::f32, {64});
  const auto y = make_tensor("Y", DType::f32, {16, 64});
  Node n = make_normalization("ln", "LayerNormalization", x, y, {1});
  n.inputs = {x, scale, bias};
  n.operand_mapping = {AffineMap::identity(2), AffineMap::of_dims(2, std::vector<int>{1}),
                       AffineMap::of_dims(2, std::vector<int>{1}), AffineMap::identity(2)};
  const Workload d = decompose_layer_normalization(n);
  EXPECT_EQ(types(d), (std::vector<std::string>{"ReduceMean", "Sub", "ReduceSumSquare", "Sqrt", "Div", "Mul", "Add"}));
  EXPECT_EQ(by_type(d, "Mul").operand_mapping[1].str(), "(d0, d1) -> (d1)");
  EXPECT_EQ(by_type(d, "Add").outputs[0], y);
  EXPECT_NE(by_type(d, "Div").outputs[0], y);
  expect_replaces(n, d);
  const auto bad = make_tensor("S2", DType::f32, {63});
  n.inputs[1] = bad;
  EXPECT_THROW((void)decompose_layer_normalization(n), Error);
}

TEST(RmsNormalizationDecomposition, TheRmsNormBlock) {
  const Workload w = block(blocks::rmsnorm_spec(), {});
  const Node& n = w.node_by_name("rmsnorm");
  const Workload d = decompose_rms_normalization(n);
  EXPECT_EQ(types(d), (std::vector<std::string>{"ReduceSumSquare", "Sqrt", "Div"}));
  EXPECT_EQ(by_type(d, "ReduceSumSquare").outputs[0]->shape, (Shape{16}));
  EXPECT_EQ(kind_positions(by_type(d, "ReduceSumSquare"), IteratorKind::Reduction), (std::vector<int>{1}));
  EXPECT_EQ(by_type(d, "Div").outputs[0], n.outputs[0]);
  EXPECT_EQ(*by_type(d, "Div").fused_kernel, "RMSNormalization:rmsnorm");
  expect_replaces(n, d);
}

// --- AttentionBlock -------------------------------------------------------------------------

TEST(AttentionBlockDecomposition, FlashAttentionBlock) {
  // §7.13: flash_attention(8, 32, 8, 16): seq_q 8, seq_k 32, d_head 8, block 16.
  const Workload fa = block(blocks::flash_attention_spec(),
                            {{"seq_q", "8"}, {"seq_k", "32"}, {"d_head", "8"}, {"block_size", "16"}});
  const Node& b0 = fa.node_by_name("attention_block0");
  const Workload d = decompose_attention_block(b0);
  EXPECT_EQ(types(d), (std::vector<std::string>{"MatMul", "ReduceMax", "Maximum", "Exp", "ReduceSum", "MatMul", "Exp",
                                                "ScaleAdd", "ScaleAdd"}));
  const auto ops = subops(d);
  const Node& scores = *ops[0];
  const Node& context = *ops[5];
  EXPECT_EQ(scores.name, "attention_block0_scores");
  EXPECT_EQ(context.name, "attention_block0_context");
  // The scores reduce over d_head (8), the context over the block (16); context dim 1 is PARALLEL.
  ASSERT_EQ(kind_positions(scores, IteratorKind::Reduction).size(), 1u);
  EXPECT_EQ(loop_sizes(scores)[static_cast<std::size_t>(kind_positions(scores, IteratorKind::Reduction)[0])], 8);
  ASSERT_EQ(kind_positions(context, IteratorKind::Reduction).size(), 1u);
  EXPECT_EQ(loop_sizes(context)[static_cast<std::size_t>(kind_positions(context, IteratorKind::Reduction)[0])], 16);
  EXPECT_EQ(iterator_kinds(context)[1], IteratorKind::Parallel);
  EXPECT_EQ(scores.outputs[0]->shape, (Shape{8, 16}));
  EXPECT_EQ(kind_positions(*ops[1], IteratorKind::Reduction), (std::vector<int>{1}));
  EXPECT_EQ(kind_positions(*ops[4], IteratorKind::Reduction), (std::vector<int>{1}));
  // The running statistics are written to the block's own outputs.
  EXPECT_EQ(ops[2]->outputs[0], b0.outputs[0]);  // m
  EXPECT_EQ(ops[7]->outputs[0], b0.outputs[1]);  // l
  EXPECT_EQ(ops[8]->outputs[0], b0.outputs[2]);  // o
  EXPECT_EQ(ops[3]->inputs[1], b0.outputs[0]);   // probs use the new running max
  EXPECT_EQ(d.nodes_of_kind(NodeKind::InEdge).size(), 6u);
  EXPECT_EQ(d.nodes_of_kind(NodeKind::OutEdge).size(), 3u);
  expect_replaces(b0, d);

  // A ragged last block decomposes with its own (shorter) key extent.
  const Workload ragged = block(blocks::flash_attention_spec(), {{"seq_k", "40"}, {"block_size", "16"}});
  const Node& last = ragged.node_by_name("attention_block2");
  const Workload dl = decompose_attention_block(last);
  EXPECT_EQ(subops(dl)[0]->outputs[0]->shape, (Shape{64, 8}));
  expect_replaces(last, dl);
}

TEST(AttentionBlockDecomposition, RejectsOtherShapes) {
  const auto q = make_tensor("q", DType::bf16, {8, 4});
  const auto y = make_tensor("y", DType::bf16, {8, 4});
  const Node n = make_computation("ab", "AttentionBlock", {q}, {y}, {AffineMap::identity(2), AffineMap::identity(2)});
  EXPECT_THROW((void)decompose_attention_block(n), Error);
}

// --- registration ---------------------------------------------------------------------------

TEST(DecompositionRegistry, ManifestMatchesAndLookupsWork) {
  std::vector<std::string> keys;
  Registries registries;
  PluginRegistrar registrar(registries, Provenance{"decompositions", 0, 0});
  for (auto& [op, fn] : all_decompositions()) {
    keys.push_back(op);
    registrar.add_decomposition(op, fn);
  }
  std::ifstream in(std::string(STREAM_SOURCE_DIR) + "/plugins/decompositions/decompositions.stream-plugin.json.in");
  ASSERT_TRUE(in.good());
  const auto manifest = nlohmann::json::parse(in);
  EXPECT_EQ(manifest.at("provides").at("decompositions").get<std::vector<std::string>>(), keys);
  for (const char* op : {"Softmax", "LpNormalization", "AttentionBlock", "LayerNormalization", "RMSNormalization"})
    EXPECT_NE(registries.decomposition(op), nullptr) << op;
  // §7.13: a MatMul has no decomposition.
  EXPECT_EQ(registries.decomposition("MatMul"), nullptr);
  const Workload attn = block(blocks::attention_spec(), {{"heads", "2"}, {"seq", "8"}, {"d_head", "8"}});
  const Decomposer* sm = registries.decomposition("Softmax");
  ASSERT_NE(sm, nullptr);
  EXPECT_EQ(types((*sm)(attn.node_by_name("softmax"))),
            (std::vector<std::string>{"ReduceMax", "Exp", "ReduceSum", "Div"}));
}

}  // namespace
}  // namespace stream::decompositions
