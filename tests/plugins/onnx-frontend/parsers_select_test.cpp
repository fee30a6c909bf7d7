// The selections TopK, ArgMax, ArgMin (parsers_select.cpp), against hand-derived maps, loop sizes,
// iterator kinds and access classes.
#include <stream/pipeline/fusion_groups.hpp>

#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// ArgMax over axis 1 of [2,5,7], keepdims: dims (d0, d1, d2, r), the kept unit axis has its own
// loop d1 (extent 1), r (extent 5) reads the input axis and is a reduction.
TEST(Selection, ArgMaxKeepDimsReducesOverTheAxis) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 5, 7}).output("Y", I64);
  m.node("ArgMax", {"X"}, {"Y"}, "argmax").attr("axis", 1);
  auto w = parse(m);
  const auto& n = node(w, "argmax");
  EXPECT_EQ(map_of(n, 0), "(d0, d3, d2)");
  EXPECT_EQ(map_of(n, 1), "(d0, d1, d2)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 1, 7, 5}));
  EXPECT_EQ(kinds(n), "PPPR");
  EXPECT_EQ(n.outputs[0]->dtype, DType::i64);
  EXPECT_EQ(access_relation(n, 0).kind, AccessKind::Affine);
  EXPECT_EQ(access_relation(n, 1).kind, AccessKind::DataDependent);
}

TEST(Selection, ArgMinWithoutKeepDimsDropsTheAxis) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 5, 7}).output("Y", I64);
  m.node("ArgMin", {"X"}, {"Y"}, "argmin").attr("axis", -1).attr("keepdims", 0);
  auto w = parse(m);
  const auto& n = node(w, "argmin");
  // dims (d0, d1, r): X[d0, d1, r], Y[d0, d1].
  EXPECT_EQ(map_of(n, 0), "(d0, d1, d2)");
  EXPECT_EQ(map_of(n, 1), "(d0, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 5, 7}));
  EXPECT_EQ(kinds(n), "PPR");
}

TEST(Selection, TopKWritesValuesAndIndicesFromAConstantK) {
  ModelBuilder m("g");
  m.input("X", F32, {3, 10}).int_initializer("K", {4}).output("V", F32).output("I", I64);
  m.node("TopK", {"X", "K"}, {"V", "I"}, "topk");
  auto w = parse(m);
  const auto& n = node(w, "topk");
  // dims (d0, d1, r): the K slots d1, the 10 candidates r.
  ASSERT_EQ(n.outputs.size(), 2u);
  EXPECT_EQ(map_of(n, 0), "(d0, d2)");
  EXPECT_EQ(map_of(n, 1), "(d0, d1)");
  EXPECT_EQ(map_of(n, 2), "(d0, d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{3, 4, 10}));
  EXPECT_EQ(kinds(n), "PPR");
  EXPECT_EQ(n.outputs[1]->dtype, DType::i64);
  EXPECT_EQ(access_relation(n, 1).kind, AccessKind::DataDependent);
  EXPECT_EQ(access_relation(n, 2).kind, AccessKind::DataDependent);
}

TEST(Selection, TopKRejectsAKLargerThanTheAxis) {
  ModelBuilder m("g");
  m.input("X", F32, {3, 10}).int_initializer("K", {11}).output("V", F32);
  m.node("TopK", {"X", "K"}, {"V", "I"}, "topk");
  expect_error([&] { (void)parse(m); }, {"topk", "K=11 is outside [1, 10]"});
}

TEST(Selection, FusionCutsAfterADataDependentOutput) {
  ModelBuilder m("g");
  m.input("X", F32, {4, 16}).output("Z", F32);
  m.node("Relu", {"X"}, {"r"}, "relu");
  m.node("ArgMax", {"r"}, {"idx"}, "argmax").attr("axis", 1);
  m.node("Cast", {"idx"}, {"Z"}, "cast").attr("to", static_cast<std::int64_t>(F32));
  auto w = parse(m);
  // relu -> argmax is affine (no cut); argmax's indices are data: the cut follows it.
  EXPECT_EQ(pipeline::determine_fusion_cut_points(w), (std::vector<std::string>{"argmax"}));
}

}  // namespace
