// ScatterND (parsers_scatter.cpp), against hand-derived maps, loop sizes, element types and access
// classes.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// A KV-cache write of 4 rows: data [16, 8], indices [4, 1] (k = 1), updates [4, 8]. Dims
// (u0, s1): updates[u0, s1]; data and output at (routed row, s1), the row bound at 0.
TEST(Scatter, ScatterNDIsADataDependentWrite) {
  ModelBuilder m("g");
  m.input("cache", F32, {16, 8}).input("new_rows", F32, {4, 8}).initializer("idx", I64, {4, 1}).output("Y", F32);
  m.node("ScatterND", {"cache", "idx", "new_rows"}, {"Y"}, "scatter");
  auto w = parse(m);
  const auto& n = node(w, "scatter");
  ASSERT_EQ(n.inputs.size(), 2u);
  EXPECT_EQ(map_of(n, 0), "(0, d1)");
  EXPECT_EQ(map_of(n, 1), "(d0, d1)");
  EXPECT_EQ(map_of(n, 2), "(0, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{4, 8}));
  EXPECT_EQ(access_relation(n, 0).kind, AccessKind::DataDependent);
  EXPECT_EQ(access_relation(n, 0).index_tensor, "idx");
  EXPECT_EQ(access_relation(n, 1).kind, AccessKind::Affine);
  EXPECT_EQ(access_relation(n, 2).kind, AccessKind::DataDependent);
}

TEST(Scatter, ScatterNDPerHeadUpdateOfA4DCache) {
  // [batch 1, heads 2, capacity 16, d 8], one new token per head: indices [1, 2, 1, 3].
  ModelBuilder m("g");
  m.input("cache", F32, {1, 2, 16, 8}).input("kv", F32, {1, 2, 1, 8}).initializer("idx", I64, {1, 2, 1, 3}).output("Y", F32);
  m.node("ScatterND", {"cache", "idx", "kv"}, {"Y"}, "scatter").attr("reduction", "add");
  auto w = parse(m);
  const auto& n = node(w, "scatter");
  // dims (u0, u1, u2, s3): three routed axes at 0, the head-dim slice s3.
  EXPECT_EQ(map_of(n, 2), "(0, 0, 0, d3)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 2, 1, 8}));
}

TEST(Scatter, ScatterNDRejectsMismatchedUpdatesAndReductions) {
  ModelBuilder m("g");
  m.input("cache", F32, {16, 8}).input("new_rows", F32, {4, 7}).initializer("idx", I64, {4, 1}).output("Y", F32);
  m.node("ScatterND", {"cache", "idx", "new_rows"}, {"Y"}, "scatter");
  expect_error([&] { (void)parse(m); }, {"scatter", "updates shape must be indices.shape[:-1] + data.shape[k:]"});
  ModelBuilder m2("g");
  m2.input("cache", F32, {16, 8}).input("new_rows", F32, {4, 8}).initializer("idx", I64, {4, 1}).output("Y", F32);
  m2.node("ScatterND", {"cache", "idx", "new_rows"}, {"Y"}, "scatter").attr("reduction", "xor");
  expect_error([&] { (void)parse(m2); }, {"scatter", "reduction 'xor' is not supported (none, add, mul, max or min)"});
}

TEST(Scatter, ScatterNDReductionsMulMaxMinAccessAsAdd) {
  // ONNX's test_scatternd_{multiply,max,min}: data [4, 4, 4], indices [2, 1], updates [2, 4, 4].
  for (const char* reduction : {"mul", "max", "min"}) {
    ModelBuilder m("g", 18);
    m.input("data", F32, {4, 4, 4}).initializer("idx", I64, {2, 1}).input("updates", F32, {2, 4, 4}).output("Y", F32);
    m.node("ScatterND", {"data", "idx", "updates"}, {"Y"}, "scatter").attr("reduction", reduction);
    auto w = parse(m);
    const auto& n = node(w, "scatter");
    EXPECT_EQ(map_of(n, 0), "(0, d1, d2)") << reduction;
    EXPECT_EQ(map_of(n, 1), "(d0, d1, d2)") << reduction;
    EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 4, 4})) << reduction;
    EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{4, 4, 4})) << reduction;
  }
}

}  // namespace
