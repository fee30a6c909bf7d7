// tiling::tile on small groups whose one-iteration figures follow by hand from spec §4.3: the
// spatial unrollings (largest factor per unified dim), the fusion splits (dim size over tile x
// unrolling), the tensors' one-iteration shapes, the untiled MAC count and the errors.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/ir/dimensions.hpp>
#include <stream/ir/workload.hpp>
#include <stream/tiling/tiled_group.hpp>

#include "thrown_error.hpp"

using namespace stream;
using stream::test::mentions;
using stream::test::thrown_error;

namespace {

AffineExpr d(int i) { return AffineExpr::dim(i); }

// X[8,16] -> Relu1 -> Y -> Relu2 -> Z: identity maps, so Relu1's and Relu2's dims unify pairwise.
Workload relu_chain() {
  auto t = [](const std::string& n) { return make_tensor(n, DType::bf16, {8, 16}); };
  auto x = t("X"), y = t("Y"), z = t("Z");
  const AffineMap id(2, {d(0), d(1)});
  return Workload({make_in_edge("X", x), make_computation("Relu1", "Relu", {x}, {y}, {id, id}),
                   make_computation("Relu2", "Relu", {y}, {z}, {id, id}), make_out_edge("Z_out", z)});
}

// Relu1 on core 0 split 2 ways on D1, Relu2 on core 1 split 4 ways on D1.
mapping::GroupMapping chain_mapping(std::vector<mapping::TileEntry> intra) {
  mapping::GroupMapping m;
  m.nodes.resize(4);
  m.nodes[1] = {{0}, {{1, 2}}, std::nullopt};
  m.nodes[2] = {{1}, {{1, 4}}, std::nullopt};
  m.intra_core_tiling = std::move(intra);
  return m;
}

int unified_dim(const Workload& w, const std::string& node, int local) {
  const std::size_t i = w.index_of(node);
  return w.unified_dimensions().dims_of(i, w.node(i).num_dims()).at(static_cast<std::size_t>(local));
}

}  // namespace

TEST(TiledGroup, TheLargestInterCoreFactorOfAUnifiedDimIsItsUnrolling) {
  const Workload w = relu_chain();
  ASSERT_EQ(unified_dim(w, "Relu1", 1), unified_dim(w, "Relu2", 1));
  const auto t = tiling::tile(w, chain_mapping({}));
  ASSERT_EQ(t.spatial_unrollings.size(), 1u);
  EXPECT_EQ(t.spatial_unrollings[0].first, unified_dim(w, "Relu1", 1));
  EXPECT_EQ(t.spatial_unrollings[0].second, 4);  // max(2, 4)
  EXPECT_TRUE(t.fusion_splits.empty());
  EXPECT_EQ(t.iterations(), 1);
  EXPECT_EQ(t.workload.node_by_name("Relu2").outputs[0]->shape, (std::vector<std::int64_t>{8, 16}));
}

TEST(TiledGroup, ATileOfD0SplitsTheGroupIntoSizeOverTileIterations) {
  const Workload w = relu_chain();
  const auto t = tiling::tile(w, chain_mapping({{"Relu2", 0, 2}}));
  ASSERT_EQ(t.fusion_splits.size(), 1u);
  EXPECT_EQ(t.fusion_splits[0], std::make_pair(unified_dim(w, "Relu2", 0), std::int64_t{4}));  // 8 / 2
  EXPECT_EQ(t.iterations(), 4);
  // Every tensor of the chain is walked by the unified D0: two rows per iteration.
  for (const char* name : {"Relu1", "Relu2"}) {
    const Node& n = t.workload.node_by_name(name);
    EXPECT_EQ(n.inputs[0]->shape, (std::vector<std::int64_t>{2, 16})) << name;
    EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{2, 16})) << name;
  }
}

TEST(TiledGroup, ATileOfAnUnrolledDimCountsTheUnrollingInTheIterationsTile) {
  const Workload w = relu_chain();
  // D1 is 16, unrolled 4 ways: a tile of 2 per core is 8 elements per iteration, 2 iterations.
  const auto t = tiling::tile(w, chain_mapping({{"Relu1", 1, 2}}));
  EXPECT_EQ(t.iterations(), 2);
  EXPECT_EQ(t.workload.node_by_name("Relu1").outputs[0]->shape, (std::vector<std::int64_t>{8, 8}));
}

TEST(TiledGroup, ATileThatDoesNotDivideItsDimGivesBalancedIterationsOfTheLongestPart) {
  // D0 is 8 rows, a tile of 3: ceil(8 / 3) = 3 iterations of ceil(8 / 3) = 3 rows (3 + 3 + 2).
  const auto t = tiling::tile(relu_chain(), chain_mapping({{"Relu1", 0, 3}}));
  EXPECT_EQ(t.iterations(), 3);
  EXPECT_EQ(t.workload.node_by_name("Relu2").outputs[0]->shape, (std::vector<std::int64_t>{3, 16}));
}

TEST(TiledGroup, ATileBelowOneNamesTheNodeAndTheDim) {
  const auto e = thrown_error([] { (void)tiling::tile(relu_chain(), chain_mapping({{"Relu1", 0, 0}})); });
  EXPECT_TRUE(mentions(e, "intra-core tile 0 of Relu1.D0 must be at least 1")) << e.message();
  EXPECT_EQ(e.where().node, "Relu1");
  EXPECT_EQ(e.kind(), ErrorKind::BadInput);
}

TEST(TiledGroup, AnInterCoreSplitOfAMissingDimIsAnError) {
  auto m = chain_mapping({});
  m.nodes[2].inter_core_tiling = {{5, 2}};
  const auto e = thrown_error([&] { (void)tiling::tile(relu_chain(), m); });
  EXPECT_TRUE(mentions(e, "inter-core split of node 'Relu2' names dim D5 but the node has 2 dims")) << e.message();
  EXPECT_EQ(e.where().node, "Relu2");
}

TEST(TiledGroup, AMappingOfTheWrongLengthIsAnInternalError) {
  auto m = chain_mapping({});
  m.nodes.pop_back();
  const auto e = thrown_error([&] { (void)tiling::tile(relu_chain(), m); });
  EXPECT_EQ(e.kind(), ErrorKind::Internal);
}

TEST(TiledGroup, TheMacCountIsThatOfTheUntiledGroupsMacNodes) {
  // A 4x16 by 16x8 MatMul (dims m, n, k) is 4 * 8 * 16 = 512 MACs; the Relu after it adds none.
  auto a = make_tensor("A", DType::bf16, {4, 16}), b = make_tensor("B", DType::bf16, {16, 8});
  auto c = make_tensor("C", DType::bf16, {4, 8}), r = make_tensor("R", DType::bf16, {4, 8});
  const Workload w({make_in_edge("A", a), make_in_edge("B", b),
                    make_computation("MM", "MatMul", {a, b}, {c},
                                     {AffineMap(3, {d(0), d(2)}), AffineMap(3, {d(2), d(1)}), AffineMap(3, {d(0), d(1)})}),
                    make_computation("Act", "Relu", {c}, {r}, {AffineMap(2, {d(0), d(1)}), AffineMap(2, {d(0), d(1)})}),
                    make_out_edge("R_out", r)});
  mapping::GroupMapping m;
  m.nodes.resize(w.size());
  m.nodes[2].cores = {0};
  m.nodes[3].cores = {0};
  m.intra_core_tiling = {{"MM", 0, 1}};  // 4 iterations of one row: the count stays the untiled one
  const auto t = tiling::tile(w, m);
  EXPECT_EQ(t.iterations(), 4);
  EXPECT_EQ(t.total_mac_ops, 512);
}
