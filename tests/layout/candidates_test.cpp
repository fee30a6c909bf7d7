// The blocked options of `--layout choose` (layout/candidates.hpp), derived by hand.
#include <gtest/gtest.h>

#include <stream/layout/candidates.hpp>
#include <stream/tiling/tiled_group.hpp>

using namespace stream;

namespace {

AffineMap dims(int n, std::vector<int> d) { return AffineMap::of_dims(n, d); }

// A 1x1 convolution O[n, k, y, x] = sum_c I[n, c, y, x] W[c, k], loops (d0 n 1, d1 k 32, d2 y 8,
// d3 x 8, d4 c 16), on one core, tiled by `tiling`.
struct Conv {
  Workload w;
  tiling::TiledGroup tiled;
  const Tensor& in() const { return *w.node(2).inputs[0]; }
  const Tensor& weights() const { return *w.node(2).inputs[1]; }
};

Conv conv(std::vector<mapping::TileEntry> tiling) {
  auto in = make_tensor("I", DType::bf16, {1, 16, 8, 8}), w = make_tensor("W", DType::bf16, {16, 32});
  auto out = make_tensor("O", DType::bf16, {1, 32, 8, 8});
  Conv c{Workload({make_in_edge("I", in), make_in_edge("W", w),
                   make_computation("conv", "Conv", {in, w}, {out},
                                    {dims(5, {0, 4, 2, 3}), dims(5, {4, 1}), dims(5, {0, 1, 2, 3})}),
                   make_out_edge("O_out", out)}),
         {}};
  mapping::GroupMapping m;
  m.nodes.resize(c.w.size());
  m.nodes[2] = {{0}, {}};
  m.intra_core_tiling = std::move(tiling);
  c.tiled = tiling::tile(c.w, m);
  return c;
}

std::vector<std::string> texts(const std::vector<Layout>& ls, std::size_t rank) {
  std::vector<std::string> out;
  for (const auto& l : ls) out.push_back(l.str(rank));
  return out;
}

}  // namespace

TEST(LayoutCandidates, ChannelTilesGiveNchwc) {
  // Tiled over c by 4: the walk is c (tiled) outermost, then n, k, y, x. I's axes: n has extent 1
  // (outermost), c is walked first, then y, x: the walk order is NCHW, and c covered 4 of 16
  // makes its blocked variant NCHW4c, (0,1,2,3,1:4). W [C, K]: c walked before k, (0,1); c by 4
  // gives (0,1,0:4); k is covered whole, no block.
  const auto c = conv({{"conv", 4, 4}});
  EXPECT_EQ(layout::walk_layout(c.w, c.tiled, 2, c.in()).str(4), "(0,1,2,3)");
  EXPECT_EQ(texts(layout::blocked_layouts(c.w, c.tiled, 2, c.in()), 4), std::vector<std::string>{"(0,1,2,3,1:4)"});
  EXPECT_EQ(texts(layout::blocked_layouts(c.w, c.tiled, 2, c.weights()), 2), std::vector<std::string>{"(0,1,0:4)"});
}

TEST(LayoutCandidates, EveryPartlyCoveredAxisGetsItsBlock) {
  // Tiled over c by 8 and y by 2: the tiled dims are walked first in dim order, y (d2) then c
  // (d4), then n, k, x. I: n (extent 1) outermost, then y, c, x: (0,2,1,3). c (8 of 16) and y (2
  // of 8) are both covered partly: (0,2,1,3,1:8) and (0,2,1,3,2:2). Untiled, nothing is covered
  // partly: no blocked variant.
  const auto c = conv({{"conv", 4, 8}, {"conv", 2, 2}});
  EXPECT_EQ(layout::walk_layout(c.w, c.tiled, 2, c.in()).str(4), "(0,2,1,3)");
  EXPECT_EQ(texts(layout::blocked_layouts(c.w, c.tiled, 2, c.in()), 4),
            (std::vector<std::string>{"(0,2,1,3,1:8)", "(0,2,1,3,2:2)"}));
  const auto whole = conv({});
  EXPECT_TRUE(layout::blocked_layouts(whole.w, whole.tiled, 2, whole.in()).empty());
  // A tensor the node does not access has no walk and no blocks.
  const auto other = make_tensor("other", DType::bf16, {4, 4});
  EXPECT_TRUE(layout::blocked_layouts(c.w, c.tiled, 2, *other).empty());
}
