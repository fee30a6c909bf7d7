// The automatic cut points' size cap (kMaxFusedComputeNodes): a run of fused layers longer than
// the cap is cut into equal consecutive chunks, counted per group between the existing cuts and
// FusionEdges, on hand-built Relu chains.
#include <gtest/gtest.h>

#include <stream/pipeline/fusion_groups.hpp>

using namespace stream;

namespace {

// x0 -> relu0 -> x1 -> ... -> relu{n-1} -> x{n}, with a Reshape FusionEdge after relu{fe} when
// fe >= 0 (its output feeds relu{fe+1}).
Workload relu_chain(int n, int fe = -1) {
  auto t = [](int i) { return make_tensor("x" + std::to_string(i), DType::bf16, {1, 16, 8, 8}); };
  TensorPtr in = t(0);
  std::vector<Node> nodes{make_in_edge("x0_edge", in)};
  auto d = [](int i) { return AffineExpr::dim(i); };
  const AffineMap id(4, {d(0), d(1), d(2), d(3)});
  for (int i = 0; i < n; ++i) {
    TensorPtr out = t(i + 1);
    nodes.push_back(make_computation("relu" + std::to_string(i), "Relu", {in}, {out}, {id, id}));
    in = out;
    if (i == fe) {
      TensorPtr moved = make_tensor("y" + std::to_string(i), DType::bf16, {1, 16, 8, 8});
      nodes.push_back(make_fusion_edge("reshape", "Reshape", in, moved));
      in = moved;
    }
  }
  nodes.push_back(make_out_edge("out_edge", in));
  return Workload(std::move(nodes));
}

using Names = std::vector<std::string>;

}  // namespace

// 10 nodes, cap 4: ceil(10/4) = 3 chunks of ceil(10/3) = 4 nodes, cut after relu3 and relu7.
TEST(SizeCap, LongGroupIsCutIntoEqualChunks) {
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(10), {}, 4), (Names{"relu3", "relu7"}));
}

// 8 nodes, cap 4: exactly two chunks of 4 (one cut), and nothing at or under the cap.
TEST(SizeCap, GroupsAtTheCapStayWhole) {
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(8), {}, 4), (Names{"relu3"}));
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(4), {}, 4), Names{});
}

// An existing cut after relu1 leaves groups of 2 and 8: only the second is chunked (cut after
// relu5), and the existing cut is kept, in dataflow order.
TEST(SizeCap, CountsEachGroupBetweenExistingCuts) {
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(10), {"relu1"}, 4), (Names{"relu1", "relu5"}));
}

// A FusionEdge after relu2 already ends a group of 3; the remaining 7 make two chunks of 4 and 3.
TEST(SizeCap, AFusionEdgeEndsAGroup) {
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(10, 2), {}, 4), (Names{"relu6"}));
}

// The chunks the cuts make are the groups split_fusion_groups builds.
TEST(SizeCap, SplitMakesChunksOfAtMostTheCap) {
  const Workload w = relu_chain(10);
  const auto groups = pipeline::split_fusion_groups(w, pipeline::size_capped_cut_points(w, {}, 4));
  ASSERT_EQ(groups.size(), 3u);
  for (const auto& g : groups) EXPECT_LE(g.computation_nodes().size(), 4u);
  EXPECT_EQ(groups[2].computation_nodes().size(), 2u);
}
