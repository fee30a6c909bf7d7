// OneHot and EyeLike (parsers_generators.cpp) against hand-derived shapes and loops.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// Float indices (2, 3), depth 10 on axis 1: Y (2, 10, 3); the indices read at (d0, d2), the values
// at 0.
TEST(Generators, OneHotWritesEveryOutputElement) {
  ModelBuilder m("g", 11);
  m.input("I", F32, {2, 3}).initializer("depth", F32, {}).input("values", F32, {2}).output("Y", F32, {2, 10, 3}, true);
  m.node("OneHot", {"I", "depth", "values"}, {"Y"}, "oh").attr("axis", 1);
  auto w = parse(m);
  const auto& n = node(w, "oh");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 10, 3}));
  EXPECT_EQ(map_of(n, 0), "(d0, d2)");
  EXPECT_EQ(map_of(n, 1), "(0)");
}

TEST(Generators, EyeLikeReadsNothing) {
  ModelBuilder m("g");
  m.input("X", F32, {3, 4}).output("Y", F32);
  m.node("EyeLike", {"X"}, {"Y"}, "eye").attr("k", 1);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{3, 4}));
  EXPECT_TRUE(node(w, "eye").inputs.empty());
  EXPECT_EQ(sizes(node(w, "eye")), (std::vector<std::int64_t>{3, 4}));
}

// HannWindow of a constant size 8: an (8) output computed from constants alone, so it is
// evaluated at load time (constant subgraphs): the graph output is a constant, no node computes it.
TEST(Generators, WindowOfAConstantSizeIsAConstant) {
  ModelBuilder m("g", 17);
  m.int_initializer("size", {8}, false).output("W", F32);
  m.node("HannWindow", {"size"}, {"W"}, "hann");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "W"), (std::vector<std::int64_t>{8}));
  EXPECT_TRUE(w.computation_nodes().empty());
  EXPECT_EQ(node(w, "W").kind, NodeKind::InEdge);
}

}  // namespace
