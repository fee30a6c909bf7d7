// Where, the comparisons and logic operators (parsers_logic.cpp: bool masks as data), against
// hand-derived maps, loop sizes, iterator kinds and access classes.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

constexpr int BOOL = onnx::TensorProto_DataType_BOOL;

// An attention mask as PyTorch writes it: scores.masked_fill(mask == 0, -inf) then softmax.
ModelBuilder attention_mask_model() {
  ModelBuilder m("g");
  m.input("scores", F32, {1, 4, 8, 8}).input("mask", F32, {1, 1, 8, 8});
  m.initializer("zero", F32, {}).initializer("neg_inf", F32, {});
  m.output("P", F32);
  m.node("Equal", {"mask", "zero"}, {"is_pad"}, "eq");
  m.node("Where", {"is_pad", "neg_inf", "scores"}, {"masked"}, "where");
  m.node("Softmax", {"masked"}, {"P"}, "softmax").attr("axis", -1);
  return m;
}

TEST(Logic, AttentionMaskEqualAndWhereAreComputations) {
  auto w = parse(attention_mask_model());
  const auto& eq = node(w, "eq");
  // The scalar 0 is an immediate: one operand, the mask, at the output's own indices.
  ASSERT_EQ(eq.inputs.size(), 1u);
  EXPECT_EQ(eq.inputs[0]->name, "mask");
  EXPECT_EQ(map_of(eq, 0), "(d0, d1, d2, d3)");
  EXPECT_EQ(eq.outputs[0]->dtype, DType::b8);
  EXPECT_EQ(bits(eq.outputs[0]->dtype), 8);
  const auto& where = node(w, "where");
  // Condition [1,1,8,8] broadcast over the 4 heads (axis 1 read at 0); the -inf fill is an immediate.
  ASSERT_EQ(where.inputs.size(), 2u);
  EXPECT_EQ(where.inputs[0]->name, "is_pad");
  EXPECT_EQ(where.inputs[1]->name, "scores");
  EXPECT_EQ(map_of(where, 0), "(d0, 0, d2, d3)");
  EXPECT_EQ(map_of(where, 1), "(d0, d1, d2, d3)");
  EXPECT_EQ(map_of(where, 2), "(d0, d1, d2, d3)");
  EXPECT_EQ(sizes(where), (std::vector<std::int64_t>{1, 4, 8, 8}));
  EXPECT_EQ(kinds(where), "PPPP");
  // No InEdge for the immediates.
  EXPECT_FALSE(has_in_edge(w, "neg_inf"));
  EXPECT_FALSE(has_in_edge(w, "zero"));
}

TEST(Logic, BroadcastingComparisonsAndLogicOps) {
  ModelBuilder m("g");
  m.input("a", F32, {2, 3, 5}).input("b", F32, {3, 1}).input("c", BOOL, {5});
  m.output("y", BOOL).output("z", F32);
  m.node("Less", {"a", "b"}, {"lt"}, "lt");
  m.node("Not", {"lt"}, {"nlt"}, "not");
  m.node("Xor", {"nlt", "c"}, {"y"}, "xor");
  m.node("Cast", {"y"}, {"z"}, "cast").attr("to", static_cast<std::int64_t>(F32));
  auto w = parse(m);
  // b [3,1] right-aligned to [2,3,5]: axis 0 -> d1, axis 1 (size 1) -> 0.
  EXPECT_EQ(map_of(node(w, "lt"), 1), "(d1, 0)");
  EXPECT_EQ(map_of(node(w, "not"), 0), "(d0, d1, d2)");
  // c [5] -> the last output axis.
  EXPECT_EQ(map_of(node(w, "xor"), 1), "(d2)");
  EXPECT_EQ(node(w, "xor").outputs[0]->dtype, DType::b8);
  EXPECT_EQ(node(w, "cast").inputs[0]->dtype, DType::b8);
  // The bool graph input c is data: it has an InEdge.
  EXPECT_TRUE(has_in_edge(w, "c"));
}

TEST(Logic, BoolShapeArithmeticStaysMetadata) {
  // Shape -> Equal -> Not computes only on int64 shapes; nothing reads its bool as data.
  ModelBuilder m("g");
  m.input("X", F32, {2, 3}).int_initializer("target", {2, 3});
  m.output("Y", F32).output("same", BOOL);
  m.node("Shape", {"X"}, {"s"}, "shape");
  m.node("Equal", {"s", "target"}, {"e"}, "eq");
  m.node("Not", {"e"}, {"same"}, "not");
  m.node("Relu", {"X"}, {"Y"}, "relu");
  auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 1u);
  EXPECT_EQ(computations(w)[0]->name, "relu");
}

TEST(Logic, Int64OperandsAreParametersOfAMaskGenerator) {
  // A causal mask from position ids (int64): the comparison has no modelled operand.
  ModelBuilder m("g");
  m.input("scores", F32, {4, 4}).input("pos_q", I64, {4, 1}).input("pos_k", I64, {1, 4});
  m.initializer("neg_inf", F32, {}).output("Y", F32);
  m.node("Less", {"pos_q", "pos_k"}, {"future"}, "lt");
  m.node("Where", {"future", "neg_inf", "scores"}, {"Y"}, "where");
  auto w = parse(m);
  const auto& lt = node(w, "lt");
  EXPECT_TRUE(lt.inputs.empty());
  EXPECT_EQ(sizes(lt), (std::vector<std::int64_t>{4, 4}));
  EXPECT_EQ(node(w, "where").inputs.size(), 2u);
}

TEST(Logic, WhereRejectsANonBoolCondition) {
  ModelBuilder m("g");
  m.input("c", F32, {4}).input("x", F32, {4}).input("y", F32, {4}).output("z", F32);
  m.node("Where", {"c", "x", "y"}, {"z"}, "where");
  expect_error([&] { (void)parse(m); }, {"where", "condition must be a bool tensor", "'c'"});
}

}  // namespace
