// The pooling parsers (parsers_pool.cpp) against hand-derived maps, loop sizes and iterator kinds
// (workload spec §2.4; where the reference is wrong, spec §9, the correct semantics).
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// Pooling: dims (b, c, oy, ox, fy, fx) with window_extents for the kernel loops.
TEST(Pool, MaxPoolUsesKernelShapeStridesPerAxisAndAsymmetricPads) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 4, 9, 10}).output("Y", F32);
  m.node("MaxPool", {"X"}, {"Y"}, "pool").attr("kernel_shape", Shape{3, 2}).attr("strides", Shape{2, 1}).attr("pads", Shape{1, 0, 0, 1});
  auto w = parse(m);
  const auto& n = node(w, "pool");
  // H: (9 + 1 - 3)/2 + 1 = 4; W: (10 + 1 - 2)/1 + 1 = 10.
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 4, 4, 10}));
  EXPECT_EQ(map_of(n, 0), "(d0, d1, (((d2 * 2) + d4) + -1), (d3 + d5))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 4, 4, 10, 3, 2}));
  EXPECT_EQ(kinds(n), "PPPPRR");
}

TEST(Pool, AveragePoolCeilModeTakesTheInferredExtent) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 2, 6, 6}).output("Y", F32);
  m.node("AveragePool", {"X"}, {"Y"}, "avg").attr("kernel_shape", Shape{3, 3}).attr("strides", Shape{2, 2}).attr("ceil_mode", 1);
  auto w = parse(m);
  // ceil((6 - 3)/2) + 1 = 3 (floor mode would give 2).
  EXPECT_EQ(sizes(node(w, "avg")), (std::vector<std::int64_t>{1, 2, 3, 3, 3, 3}));
}

TEST(Pool, GlobalPoolsReduceEverySpatialAxis) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 512, 7, 7}).output("A", F32).output("M", F32);
  m.node("GlobalAveragePool", {"X"}, {"A"}, "gap");
  m.node("GlobalMaxPool", {"X"}, {"M"}, "gmp");
  auto w = parse(m);
  EXPECT_EQ(sizes(node(w, "gap")), (std::vector<std::int64_t>{1, 512, 1, 1, 7, 7}));
  EXPECT_EQ(map_of(node(w, "gap"), 0), "(d0, d1, d4, d5)");
  EXPECT_EQ(kinds(node(w, "gmp")), "PPPPRR");
}

TEST(Pool, LrnIsAWindowedChannelReduction) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 16, 4, 4}).output("Y", F32);
  m.node("LRN", {"X"}, {"Y"}, "lrn").attr("size", 5);
  auto w = parse(m);
  const auto& n = node(w, "lrn");
  EXPECT_EQ(map_of(n, 0), "(d0, ((d1 + d4) + -2), d2, d3)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 16, 4, 4, 5}));
  EXPECT_EQ(kinds(n), "PPPPR");
}

}  // namespace
