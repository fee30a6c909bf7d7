// The data-movement and reduction parsers (parsers_movement.cpp: Gather, Concat, Pad, Expand,
// Reduce*) against hand-derived maps, loop sizes and iterator kinds (workload spec §2.4; where the
// reference is wrong, spec §9, the correct semantics).
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(Movement, SliceReadsAtItsClampedStartWithItsStep) {
  ModelBuilder m("g");
  m.input("X", F32, {10, 8}).output("Y", F32).output("Z", F32);
  m.int_initializer("starts", {2, -4}).int_initializer("ends", {6, 100}).int_initializer("axes", {0, 1}).int_initializer("steps", {2, 1});
  m.int_initializer("s2", {-100}).int_initializer("e2", {3}).int_initializer("a2", {0});
  m.node("Slice", {"X", "starts", "ends", "axes", "steps"}, {"Y"}, "slice");
  m.node("Slice", {"X", "s2", "e2", "a2"}, {"Z"}, "clamped");
  auto w = parse(m);
  const auto& n = node(w, "slice");
  EXPECT_EQ(map_of(n, 0), "(((d0 * 2) + 2), (d1 + 4))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(kinds(n), "PP");  // the reference called the offset axis SEQUENTIAL
  EXPECT_EQ(map_of(node(w, "clamped"), 0), "(d0, d1)");  // -100 clamps to 0
  EXPECT_EQ(sizes(node(w, "clamped")), (std::vector<std::int64_t>{3, 8}));  // the slice's extent, not the source's
}

TEST(Movement, GatherIsDataDependentAndHonoursItsAxis) {
  ModelBuilder m("g");
  m.input("X", F32, {128, 32}).input("idx", I64, {3}).input("j", I64, {}).output("Y", F32).output("Z", F32);
  m.node("Gather", {"X", "idx"}, {"Y"}, "gather1").attr("axis", 1);
  m.node("Gather", {"X", "j"}, {"Z"}, "gather_scalar");
  auto w = parse(m);
  const auto& g = node(w, "gather1");
  // dims (i, m, src): the data reads its axis 1 at the source position.
  EXPECT_EQ(g.outputs[0]->shape, (std::vector<std::int64_t>{128, 3}));
  EXPECT_EQ(map_of(g, 0), "(d0, d2)");
  EXPECT_EQ(sizes(g), (std::vector<std::int64_t>{128, 3, 32}));
  EXPECT_EQ(kinds(g), "PPR");
  EXPECT_EQ(access_relation(g, 0).kind, AccessKind::DataDependent);
  const auto& s = node(w, "gather_scalar");  // a scalar index removes the axis
  EXPECT_EQ(map_of(s, 0), "(d1, d0)");
  EXPECT_EQ(sizes(s), (std::vector<std::int64_t>{32, 128}));
}

TEST(Movement, ConcatWritesEachInputAtItsOffset) {
  ModelBuilder m("g");
  m.input("a", F32, {1, 8, 4, 4}).input("b", F32, {1, 24, 4, 4}).output("y", F32);
  m.node("Concat", {"a", "b"}, {"y"}, "cat").attr("axis", 1);
  auto w = parse(m);
  const auto& n = node(w, "cat");
  EXPECT_EQ(map_of(n, 0), "(d0, d1, d2, d3)");
  EXPECT_EQ(map_of(n, 1), "(d0, (d1 + -8), d2, d3)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 32, 4, 4}));
  EXPECT_EQ(access_relation(n, 1).kind, AccessKind::PiecewiseAffine);
}

TEST(Movement, PadShiftsTheReadByTheBeginPad) {
  ModelBuilder m("g");
  m.input("X", F32, {1, 3, 4, 4}).output("Y", F32).int_initializer("pads", {0, 0, 1, 2, 0, 0, 1, 0});
  m.node("Pad", {"X", "pads"}, {"Y"}, "pad");
  auto w = parse(m);
  const auto& n = node(w, "pad");
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{1, 3, 6, 6}));
  EXPECT_EQ(map_of(n, 0), "(d0, d1, (d2 + -1), (d3 + -2))");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{1, 3, 6, 6}));
}

TEST(Movement, ExpandBroadcastsAndSplitReadsEachPart) {
  ModelBuilder m("g");
  m.input("X", F32, {4, 1}).input("S", F32, {2, 10}).output("E", F32).output("p0", F32).output("p1", F32);
  m.int_initializer("shape", {3, 4, 5}).int_initializer("split", {4, 6});
  m.node("Expand", {"X", "shape"}, {"E"}, "expand");
  m.node("Split", {"S", "split"}, {"p0", "p1"}, "split").attr("axis", 1);
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "expand"), 0), "(d1, 0)");
  EXPECT_EQ(sizes(node(w, "expand")), (std::vector<std::int64_t>{3, 4, 5}));
  EXPECT_EQ(map_of(node(w, "split_0"), 0), "(d0, d1)");
  EXPECT_EQ(map_of(node(w, "split_1"), 0), "(d0, (d1 + 4))");
  EXPECT_EQ(sizes(node(w, "split_1")), (std::vector<std::int64_t>{2, 6}));
}

TEST(Reduce, KeepdimsBothWays) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 3, 4}).output("a", F32).output("b", F32).output("c", F32).int_initializer("ax", {1});
  m.node("ReduceMean", {"X"}, {"a"}, "mean_keep").attr("axes", Shape{1});
  m.node("ReduceSum", {"X", "ax"}, {"b"}, "sum_drop").attr("keepdims", 0);
  m.node("ReduceMax", {"X"}, {"c"}, "max_all").attr("keepdims", 0);
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "mean_keep"), 1), "(d0, 0, d2)");
  EXPECT_EQ(kinds(node(w, "mean_keep")), "PRP");
  EXPECT_EQ(map_of(node(w, "sum_drop"), 1), "(d0, d2)");
  EXPECT_EQ(node(w, "sum_drop").outputs[0]->shape, (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(kinds(node(w, "max_all")), "RRR");
}

}  // namespace
