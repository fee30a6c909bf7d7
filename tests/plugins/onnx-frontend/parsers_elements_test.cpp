// GatherElements and ScatterElements (parsers_elements.cpp): loops over the indices' axes, the
// data read or written at the routed position, derived by hand.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// data (3, 4), indices (2, 4) along axis 0: Y (2, 4), loops (2, 4), data read at (routed 0, d1).
TEST(Elements, GatherElementsReadsOneRoutedElementPerIndex) {
  ModelBuilder m("g");
  m.input("X", F32, {3, 4}).input("I", I64, {2, 4}).output("Y", F32);
  m.node("GatherElements", {"X", "I"}, {"Y"}, "ge");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 4}));
  const auto& n = node(w, "ge");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(kinds(n), "PP");
  EXPECT_EQ(map_of(n, 0), "(0, d1)");
  EXPECT_EQ(access_relation(n, 0).kind, AccessKind::DataDependent);
  EXPECT_EQ(access_relation(n, 0).index_tensor, "I");
}

TEST(Elements, ScatterElementsWritesTheUpdatesIntoTheData) {
  ModelBuilder m("g");
  m.input("D", F32, {5, 3}).input("I", I64, {2, 3}).input("U", F32, {2, 3}).output("Y", F32);
  m.node("ScatterElements", {"D", "I", "U"}, {"Y"}, "se").attr("axis", -1);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{5, 3}));
  const auto& n = node(w, "se");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(map_of(n, 2), "(0, 0)");  // axis -1 routed; axis 0 longer in the data than in the updates
  EXPECT_EQ(map_of(n, 1), "(d0, d1)");
  EXPECT_EQ(access_relation(n, 2).kind, AccessKind::DataDependent);
}

// A (2, 3, 8, 4) cache written with (2, 3, 2, 4) new rows at each batch row's write index along
// axis -2: loops over the update, the cache at 0 on the sequence axis, routed by the indices.
TEST(Elements, TensorScatterWritesTheUpdateAtRoutedPositions) {
  ModelBuilder m("g", 24);
  m.input("C", F32, {2, 3, 8, 4}).input("U", F32, {2, 3, 2, 4}).input("I", I64, {2}).output("Y", F32);
  m.node("TensorScatter", {"C", "U", "I"}, {"Y"}, "ts");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 3, 8, 4}));
  const auto& n = node(w, "ts");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 3, 2, 4}));
  EXPECT_EQ(map_of(n, 2), "(d0, d1, 0, d3)");
  EXPECT_EQ(access_relation(n, 2).index_tensor, "I");
}

TEST(Elements, IndicesLargerThanTheDataAreAnError) {
  ModelBuilder m("g");
  m.input("X", F32, {3, 4}).input("I", I64, {2, 5}).output("Y", F32, {2, 5}, true);
  m.node("GatherElements", {"X", "I"}, {"Y"}, "ge");
  expect_error([&] { parse(m); }, {"ge", "indices axis 1 (5) exceeds the data's (4)"});
}

}  // namespace
