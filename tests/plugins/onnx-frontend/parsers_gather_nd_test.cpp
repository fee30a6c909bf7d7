// GatherND (parsers_gather_nd.cpp) against hand-derived shapes and maps.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// data (4, 5, 6), indices (3, 2): k = 2 indexed axes, output (3) + (6) = (3, 6); the data read at
// (0, 0, d1), routed by the indices.
TEST(GatherND, PicksSlicesByIndexTuples) {
  ModelBuilder m("g");
  m.input("X", F32, {4, 5, 6}).input("I", I64, {3, 2}).output("Y", F32);
  m.node("GatherND", {"X", "I"}, {"Y"}, "gnd");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{3, 6}));
  const auto& n = node(w, "gnd");
  EXPECT_EQ(map_of(n, 0), "(0, 0, d1)");
  EXPECT_EQ(access_relation(n, 0).kind, AccessKind::DataDependent);
}

// batch_dims 1: data (2, 5, 6), indices (2, 1): output (2) + (6) = (2, 6), the batch axis shared.
TEST(GatherND, BatchDimsAreSharedAxes) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 5, 6}).input("I", I64, {2, 1}).output("Y", F32);
  m.node("GatherND", {"X", "I"}, {"Y"}, "gnd").attr("batch_dims", 1);
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 6}));
  EXPECT_EQ(map_of(node(w, "gnd"), 0), "(d0, 0, d1)");
}

}  // namespace
