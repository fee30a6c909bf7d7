// Tile (the mod read as a loop split o = I*t + i) and Range (a computation with no inputs; int64
// Range is shape metadata), parsers_tile_range.cpp.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(Tile, RepeatedAxesSplitIntoRepeatAndSourceLoops) {
  // X [2, 3] tiled [2, 1] -> [4, 3]: y[2t + i0, i1] = x[i0, i1] with t in [0, 2).
  ModelBuilder m("g");
  m.input("X", F32, {2, 3}).int_initializer("reps", {2, 1}).output("Y", F32);
  m.node("Tile", {"X", "reps"}, {"Y"}, "tile");
  auto w = parse(m);
  const auto& n = node(w, "tile");
  EXPECT_EQ(n.outputs[0]->shape, (std::vector<std::int64_t>{4, 3}));
  EXPECT_EQ(map_of(n, 0), "(d0, d1)");
  EXPECT_EQ(map_of(n, 1), "(((d2 * 2) + d0), d1)");
  EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{2, 3, 2}));
  EXPECT_EQ(kinds(n), "PPP");
  // Every output element is written once: 4*3 = 12 loop points, one per element.
  std::int64_t points = 1;
  for (auto s : sizes(n)) points *= s;
  EXPECT_EQ(points, 12);
}

TEST(Tile, BadRepeatsNameTheNode) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 3}).int_initializer("reps", {2}).output("Y", F32, {4, 3}, true);
  m.node("Tile", {"X", "reps"}, {"Y"}, "tile");
  expect_error([&] { parse(m); }, {"tile", "repeats has 1 values for an input of rank 2"});
  ModelBuilder z("g");
  z.input("X", F32, {2, 3}).int_initializer("reps", {0, 1}).output("Y", F32, {0, 3}, true);
  z.node("Tile", {"X", "reps"}, {"Y"}, "tile");
  // A zero repeat empties the output: legal, and no work (scenarios/empty_tensors_test.cpp).
  EXPECT_TRUE(computations(parse(z)).empty());
  ModelBuilder d("g");
  d.input("X", F32, {2, 3}).input("reps", I64, {2}).output("Y", F32, {4, 3}, true);
  d.node("Tile", {"X", "reps"}, {"Y"}, "tile");
  expect_error([&] { parse(d); }, {"tile", "repeats must be a constant integer tensor"});
}

// A float scalar Constant (Range's bounds carry values in real exports; ONNX 1.12's shape
// inference crashes on a data-less scalar initializer feeding Range).
void float_constant(ModelBuilder& m, const std::string& name, float value) {
  auto* a = m.node("Constant", {}, {name}, name).proto().add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  a->mutable_t()->set_data_type(F32);
  a->mutable_t()->add_float_data(value);
}

TEST(Range, FloatRangeOfConstantsIsEvaluatedAtLoadTime) {
  // Range(0, 2.5, 0.5): ceil(2.5 / 0.5) = 5 elements, computed from constants alone: no node
  // computes it; the graph output is the constant itself.
  ModelBuilder m("g");
  float_constant(m, "start", 0.0F);
  float_constant(m, "limit", 2.5F);
  float_constant(m, "delta", 0.5F);
  m.output("Y", F32);
  m.node("Range", {"start", "limit", "delta"}, {"Y"}, "range");
  auto w = parse(m);
  EXPECT_TRUE(w.computation_nodes().empty());
  EXPECT_EQ(node(w, "Y").kind, NodeKind::InEdge);
  EXPECT_EQ(node(w, "Y").outputs[0]->shape, (std::vector<std::int64_t>{5}));
}

TEST(Range, Int64RangeIsShapeMetadataAndIsSkipped) {
  // positions = Range(0, 4, 1) (int64) feeds a Gather's indices: no node for the Range.
  ModelBuilder m("g");
  m.input("X", F32, {4, 8}).int_initializer("start", {0}, false).int_initializer("limit", {4}, false)
      .int_initializer("delta", {1}, false).output("Y", F32);
  m.node("Range", {"start", "limit", "delta"}, {"pos"}, "range");
  m.node("Gather", {"X", "pos"}, {"Y"}, "gather");
  auto w = parse(m);
  for (const auto* n : computations(w)) EXPECT_NE(n->name, "range");
  EXPECT_EQ(node(w, "gather").outputs[0]->shape, (std::vector<std::int64_t>{4, 8}));
}

TEST(Range, NonScalarBoundsAreRejected) {
  ModelBuilder m("g");
  m.input("start", F32, {2}).input("limit", F32, {}).input("delta", F32, {}).output("Y", F32, {5}, true);
  m.node("Range", {"start", "limit", "delta"}, {"Y"}, "range");
  expect_error([&] { parse(m); }, {"range", "start must be a scalar"});
}

}  // namespace
