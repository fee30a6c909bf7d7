// fold_layout_ops' bounds (docs/plugin-author-guide.md, "FusionEdges and layout folding"): a fold
// may touch at most max_touched_nodes nodes, apply max_refinements refinements and grow a node to
// max_loops loops; past a bound the layout op stays a FusionEdge. On a generated chain of N
// MaxViT-like window-attention blocks (window partition by Reshape/Transpose/Reshape, a qkv
// projection read by three head gathers, q k^T and (q k^T) v, the reverse partition), where the
// unbounded refinement never ended (a 128-node MaxViT-like model ran past 60 s and 1.2 GB; here,
// the first block's window-partition Reshape splits the nodes' loops again and again, and each
// block's fold stops at max_loops after 10 refinements and 13 nodes instead), the
// work is the same for every block: two more blocks add exactly the same refinements, node changes
// and kept layout ops, whether they go from 2 to 4 blocks or from 4 to 6.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <stream/ir/layout_folding.hpp>
#include <stream/ir/node.hpp>

using namespace stream;

namespace {

AffineExpr d(int i) { return AffineExpr::dim(i); }
AffineMap map(int dims, std::vector<int> results) {
  std::vector<AffineExpr> r;
  for (int x : results) r.push_back(d(x));
  return AffineMap(dims, std::move(r));
}
TensorPtr f32(const std::string& name, std::vector<std::int64_t> shape) { return make_tensor(name, DType::f32, std::move(shape)); }

// One block on a [1, 4, 4, 4] (B, H, W, C) image with 2x2 windows and 2 heads of 2 channels,
// reading `y` and returning the block's output; the layout ops' permutations go to `options`.
TensorPtr window_attention_block(std::vector<Node>& nodes, LayoutFoldingOptions& options, const TensorPtr& y,
                                 const std::string& p) {
  auto layout = [&](const std::string& name, const std::string& type, const TensorPtr& in, std::vector<std::int64_t> shape,
                    std::vector<std::int64_t> perm = {}) {
    auto out = f32(p + name, std::move(shape));
    nodes.push_back(make_fusion_edge(p + name, type, in, out));
    if (!perm.empty()) options.perms[p + name] = std::move(perm);
    return out;
  };
  // Window partition: [1, 4, 4, 4] -> [1, 2, 2, 2, 2, 4] -> swap -> [4 windows, 4 pixels, 4].
  auto x = layout("part_view", "Reshape", y, {1, 2, 2, 2, 2, 4});
  x = layout("part_perm", "Transpose", x, {1, 2, 2, 2, 2, 4}, {0, 1, 3, 2, 4, 5});
  x = layout("part_flat", "Reshape", x, {4, 4, 4});
  // qkv projection to [windows, pixels, 3, heads, head dim]: loops b m n0 n1 n2 k.
  auto w = f32(p + "w", {4, 3, 2, 2}), qkv = f32(p + "qkv", {4, 4, 3, 2, 2});
  nodes.push_back(make_in_edge(p + "w", w));
  nodes.push_back(make_computation(p + "proj", "MatMul", {x, w}, {qkv},
                                   {map(6, {0, 1, 5}), map(6, {5, 2, 3, 4}), map(6, {0, 1, 2, 3, 4})}));
  // q, k, v: [windows, heads, pixels, head dim], each reading every one of the three (loop d4).
  std::vector<TensorPtr> heads;
  for (const char* g : {"q", "k", "v"}) {
    auto t = f32(p + g, {4, 2, 4, 2});
    nodes.push_back(make_computation(p + "gather_" + g, "Gather", {qkv}, {t}, {map(5, {0, 2, 4, 1, 3}), map(5, {0, 1, 2, 3})}));
    heads.push_back(t);
  }
  auto s = f32(p + "s", {4, 2, 4, 4}), o = f32(p + "o", {4, 2, 4, 2});
  nodes.push_back(make_computation(p + "qk", "MatMul", {heads[0], heads[1]}, {s},
                                   {map(5, {0, 1, 2, 4}), map(5, {0, 1, 3, 4}), map(5, {0, 1, 2, 3})}));
  nodes.push_back(make_computation(p + "sv", "MatMul", {s, heads[2]}, {o},
                                   {map(5, {0, 1, 2, 4}), map(5, {0, 1, 4, 3}), map(5, {0, 1, 2, 3})}));
  // Heads back to channels, then the reverse partition to [1, 4, 4, 4].
  auto r = layout("heads_perm", "Transpose", o, {4, 4, 2, 2}, {0, 2, 1, 3});
  r = layout("heads_flat", "Reshape", r, {4, 4, 4});
  r = layout("rev_view", "Reshape", r, {1, 2, 2, 2, 2, 4});
  r = layout("rev_perm", "Transpose", r, {1, 2, 2, 2, 2, 4}, {0, 1, 3, 2, 4, 5});
  return layout("rev_flat", "Reshape", r, {1, 4, 4, 4});
}

struct Folded {
  std::vector<Node> nodes;
  LayoutFoldingReport report;
};

Folded fold_chain(int blocks, LayoutFoldingOptions options = {}) {
  std::vector<Node> nodes;
  TensorPtr y = f32("y", {1, 4, 4, 4});
  nodes.push_back(make_in_edge("y", y));
  for (int b = 0; b < blocks; ++b) y = window_attention_block(nodes, options, y, "b" + std::to_string(b) + ".");
  nodes.push_back(make_out_edge("out", y));
  Folded f;
  f.nodes = fold_layout_ops(std::move(nodes), options, &f.report);
  return f;
}

std::size_t fusion_edges(const std::vector<Node>& nodes) {
  std::size_t n = 0;
  for (const auto& x : nodes) n += x.kind == NodeKind::FusionEdge ? 1 : 0;
  return n;
}

}  // namespace

TEST(LayoutFolding, AWindowAttentionChainFoldsInWorkLinearInItsLength) {
  const LayoutFoldingOptions defaults;
  const Folded two = fold_chain(2), four = fold_chain(4), six = fold_chain(6);
  // Every fold stays within its bounds (a fold stops at the first refinement past the bound), so
  // the whole pass is bounded by the number of layout ops, eight per block.
  EXPECT_LE(six.report.refinements, 6 * 8 * (defaults.max_refinements + 1));
  EXPECT_LE(six.report.touched_nodes, 6 * 8 * defaults.max_touched_nodes);
  // Linear: the same increment for every two more blocks.
  EXPECT_GT(four.report.refinements, two.report.refinements);
  EXPECT_EQ(six.report.refinements - four.report.refinements, four.report.refinements - two.report.refinements);
  EXPECT_EQ(six.report.touched_nodes - four.report.touched_nodes, four.report.touched_nodes - two.report.touched_nodes);
  EXPECT_EQ(six.report.kept.size() - four.report.kept.size(), four.report.kept.size() - two.report.kept.size());
  EXPECT_EQ(fusion_edges(six.nodes) - fusion_edges(four.nodes), fusion_edges(four.nodes) - fusion_edges(two.nodes));
  // The op whose fold would spread without end is kept in every block, and named as bounded.
  EXPECT_GE(two.report.bounded.size(), 2u);
  EXPECT_EQ(six.report.bounded.size() - four.report.bounded.size(), four.report.bounded.size() - two.report.bounded.size());
  // Loops stay bounded too: no node grows past max_loops.
  for (const auto& n : six.nodes) EXPECT_LE(n.num_dims(), defaults.max_loops) << n.name;
}

TEST(LayoutFolding, ABoundedFoldIsUndoneAndItsLayoutOpStaysAFusionEdge) {
  const Folded one = fold_chain(1);
  ASSERT_EQ(one.report.bounded, (std::vector<std::string>{"b0.part_flat"}));
  const Node* kept = nullptr;
  for (const auto& n : one.nodes)
    if (n.name == "b0.part_flat") kept = &n;
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->kind, NodeKind::FusionEdge);
  EXPECT_EQ(kept->outputs[0]->shape, (std::vector<std::int64_t>{4, 4, 4}));
  // Its reader reads the [4 windows, 4 pixels, 4 channels] tensor as it was, with its own loops.
  int readers = 0;
  for (const auto& n : one.nodes)
    if (n.name == "b0.proj") {
      ++readers;
      EXPECT_EQ(n.inputs[0]->name, "b0.part_flat");
      EXPECT_EQ(n.num_dims(), 6);
    }
  EXPECT_EQ(readers, 1);
}

TEST(LayoutFolding, ATighterBoundStopsTheFoldEarlier) {
  LayoutFoldingOptions tight;
  tight.max_refinements = 2;
  const Folded f = fold_chain(1, tight);
  EXPECT_EQ(f.report.bounded, (std::vector<std::string>{"b0.part_flat"}));
  EXPECT_LT(f.report.refinements, fold_chain(1).report.refinements);
}

TEST(LayoutFolding, AGraphOutputSplitByAFoldKeepsTheModelsShape) {
  // x [8] -> Relu -> y [8] (a graph output) -> Reshape [2, 4] -> Add b [2, 4] -> z [2, 4]. Folding
  // the Reshape splits axis 0 of y (and of x, which the Relu reads with the same loop) into (2, 4);
  // the OutEdge of y still reports the [8] the model gave it, and x's InEdge likewise.
  std::vector<Node> nodes;
  auto x = f32("x", {8}), y = f32("y", {8}), ys = f32("ys", {2, 4}), b = f32("b", {2, 4}), z = f32("z", {2, 4});
  nodes.push_back(make_in_edge("x", x));
  nodes.push_back(make_in_edge("b", b));
  nodes.push_back(make_computation("relu", "Relu", {x}, {y}, {map(1, {0}), map(1, {0})}));
  nodes.push_back(make_fusion_edge("view", "Reshape", y, ys));
  nodes.push_back(make_computation("add", "Add", {ys, b}, {z}, {map(2, {0, 1}), map(2, {0, 1}), map(2, {0, 1})}));
  nodes.push_back(make_out_edge("y_out", y));
  nodes.push_back(make_out_edge("z_out", z));
  LayoutFoldingReport report;
  const auto folded = fold_layout_ops(std::move(nodes), {}, &report);
  ASSERT_EQ(report.folded, (std::vector<std::string>{"view"}));
  for (const auto& n : folded) {
    if (n.name == "y_out" || n.name == "x") {
      const auto& t = n.name == "x" ? *n.outputs[0] : *n.inputs[0];
      EXPECT_EQ(t.shape, (std::vector<std::int64_t>{2, 4})) << n.name;
      EXPECT_EQ(t.model_shape(), (std::vector<std::int64_t>{8})) << n.name;
    }
    if (n.name == "z_out") {
      EXPECT_TRUE(n.inputs[0]->declared_shape.empty());  // never split
    }
  }
}
