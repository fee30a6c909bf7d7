// DepthToSpace and SpaceToDepth: lowered to reshape -> transpose -> reshape FusionEdges and folded
// into their readers where the layout rules allow (parsers_depth_space.cpp).
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// conv (8 -> 8 channels, 3x3 pad 1) -> layout op -> Relu, so the layout op sits between two
// computations.
ModelBuilder conv_layout_relu(const std::string& op, const Shape& in, const Shape& w, std::int64_t block,
                              const std::string& mode = "") {
  ModelBuilder m("g");
  m.input("X", F32, in).initializer("W", F32, w).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"T"}, "conv").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  auto n = m.node(op, {"T"}, {"U"}, "layout").attr("blocksize", block);
  if (!mode.empty()) n.attr("mode", mode);
  m.node("Relu", {"U"}, {"Y"}, "relu");
  return m;
}

TEST(DepthToSpace, DcrFoldsIntoAnElementwiseReader) {
  // Y[n, c, 2h + i, 2w + j] = T[n, (2i + j)*2 + c, h, w] (DCR, C' = 8/4 = 2). The Relu's loops
  // over the merged axes split into (h, i) and (w, j): dims (n, c, h, i, w, j); T is refined
  // into [1, i=2, j=2, c=2, 3, 3] and read at (n, i, j, c, h, w).
  auto w = parse(conv_layout_relu("DepthToSpace", {1, 8, 3, 3}, {8, 8, 3, 3}, 2, "DCR"));
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& r = node(w, "relu");
  EXPECT_EQ(r.inputs[0]->name, "T");
  EXPECT_EQ(r.inputs[0]->shape, (std::vector<std::int64_t>{1, 2, 2, 2, 3, 3}));
  EXPECT_EQ(map_of(r, 0), "(d0, d3, d5, d1, d2, d4)");
  EXPECT_EQ(sizes(r), (std::vector<std::int64_t>{1, 2, 3, 2, 3, 2}));
}

TEST(DepthToSpace, CrdReadsTheChannelBlockInnermost) {
  // CRD: Y[n, c, 2h + i, 2w + j] = T[n, 4c + 2i + j, h, w]: T refined into [1, c, i, j, 3, 3].
  auto w = parse(conv_layout_relu("DepthToSpace", {1, 8, 3, 3}, {8, 8, 3, 3}, 2, "CRD"));
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& r = node(w, "relu");
  EXPECT_EQ(map_of(r, 0), "(d0, d1, d3, d5, d2, d4)");
}

TEST(DepthToSpace, BehindAPaddedConvolutionItStaysOneFusionEdge) {
  // The merged axis 2h + i is read by a window (o + f - 1): the reshape cannot fold; the
  // transpose and the inner reshape fold into it, leaving one FusionEdge from T to U.
  ModelBuilder m("g");
  m.input("X", F32, {1, 8, 3, 3}).initializer("W", F32, {8, 8, 3, 3}).initializer("W2", F32, {4, 2, 3, 3}).output("Y", F32);
  m.node("Conv", {"X", "W"}, {"T"}, "conv").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("DepthToSpace", {"T"}, {"U"}, "d2s").attr("blocksize", 2);
  m.node("Conv", {"U", "W2"}, {"Y"}, "conv2").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  auto w = parse(m);
  const auto edges = w.nodes_of_kind(NodeKind::FusionEdge);
  ASSERT_EQ(edges.size(), 1u);
  const auto& e = w.node(edges[0]);
  EXPECT_EQ(e.inputs[0]->name, "T");
  EXPECT_EQ(e.outputs[0]->name, "U");
  EXPECT_EQ(node(w, "conv2").inputs[0]->shape, (std::vector<std::int64_t>{1, 2, 6, 6}));
}

TEST(SpaceToDepth, FoldsIntoAnElementwiseReader) {
  // Y[n, (2i + j)*2 + c, h, w] = T[n, c, 2h + i, 2w + j] (C = 2, 4x4 -> 2x2): the Relu's channel
  // loop splits into (i, j, c): dims (n, i, j, c, h, w); T is refined into [1, 2, h, i, w, j]
  // and read at (n, c, h, i, w, j).
  // The producer is elementwise: a convolution's output rows are read through its window, so
  // splitting them (the first reshape) could not fold.
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 4, 4}).output("Y", F32);
  m.node("Sigmoid", {"X"}, {"T"}, "pre");
  m.node("SpaceToDepth", {"T"}, {"U"}, "layout").attr("blocksize", 2);
  m.node("Relu", {"U"}, {"Y"}, "relu");
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& r = node(w, "relu");
  EXPECT_EQ(r.inputs[0]->shape, (std::vector<std::int64_t>{1, 2, 2, 2, 2, 2}));
  EXPECT_EQ(map_of(r, 0), "(d0, d3, d4, d1, d5, d2)");
  EXPECT_EQ(sizes(r), (std::vector<std::int64_t>{1, 2, 2, 2, 2, 2}));
}

TEST(DepthToSpace, BadAttributesNameTheNode) {
  expect_error([] { parse(conv_layout_relu("DepthToSpace", {1, 8, 3, 3}, {8, 8, 3, 3}, 2, "RCD")); },
               {"layout", "unknown mode 'RCD'"});
  expect_error([] { parse(conv_layout_relu("DepthToSpace", {1, 8, 3, 3}, {8, 8, 3, 3}, 0)); }, {"layout", "blocksize must be >= 1"});
  expect_error([] { parse(conv_layout_relu("SpaceToDepth", {1, 2, 5, 5}, {2, 2, 3, 3}, 2)); },
               {"layout", "not multiples of blocksize 2"});
}

}  // namespace

namespace {

TEST(LayoutFolding, AReshapeSplittingTwoAxesRefinesBothThroughItsProducer) {
  // Sigmoid -> Reshape [1, 2, 4, 6] -> [1, 2, 2, 2, 3, 2] -> Relu. Both splits refine the Sigmoid's
  // loops and, through them, its input X: [1, 2, 2, 2, 3, 2]. (The second refinement of X used
  // to be queued at an axis shifted twice, and the fold was given up.)
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 4, 6}).int_initializer("shape", {1, 2, 2, 2, 3, 2}).output("Y", F32);
  m.node("Sigmoid", {"X"}, {"T"}, "pre");
  m.node("Reshape", {"T", "shape"}, {"U"}, "split");
  m.node("Relu", {"U"}, {"Y"}, "relu");
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& pre = node(w, "pre");
  EXPECT_EQ(pre.inputs[0]->shape, (std::vector<std::int64_t>{1, 2, 2, 2, 3, 2}));
  EXPECT_EQ(map_of(pre, 0), "(d0, d1, d2, d3, d4, d5)");
  EXPECT_EQ(sizes(pre), (std::vector<std::int64_t>{1, 2, 2, 2, 3, 2}));
}

}  // namespace
