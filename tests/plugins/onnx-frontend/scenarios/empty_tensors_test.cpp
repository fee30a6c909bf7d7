// Empty tensors (an extent 0) are legal ONNX (ONNX's own tests: test_slice_start_out_of_bounds,
// test_split_zero_size_splits, test_tril_zero, ...). They hold no data: a node that only writes
// empty values has no work and is not in the workload, a Concat skips its empty parts, and a node
// that computes a non-empty value from an empty one (a MatMul over K = 0) is a fill whose output
// is a constant the readers load (frontend.cpp, drop_empty_work).
#include "../onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(EmptyTensors, AnEmptyGraphInputParsesToNoWork) {
  ModelBuilder m("g");
  m.input("x", F32, {0, 3}).output("y", F32);
  m.node("Relu", {"x"}, {"y"}, "relu");
  const auto w = parse(m);
  EXPECT_TRUE(computations(w).empty());
  EXPECT_FALSE(has_in_edge(w, "x"));
  EXPECT_EQ(count_kind(w, NodeKind::OutEdge), 0u);
}

TEST(EmptyTensors, AnEmptySliceAndItsReadersHaveNoWorkTheRestStays) {
  // starts = ends = 5 on axis 0 of [8, 3]: s is [0, 3]; the other branch is untouched.
  ModelBuilder m("g");
  m.input("x", F32, {8, 3}).output("y", F32).output("z", F32);
  m.int_initializer("five", {5});
  m.node("Slice", {"x", "five", "five"}, {"s"}, "empty_slice");
  m.node("Relu", {"s"}, {"y"}, "relu_empty");
  m.node("Relu", {"x"}, {"z"}, "relu_full");
  const auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 1u);
  EXPECT_EQ(computations(w)[0]->name, "relu_full");
  EXPECT_EQ(graph_output_shape(w, "z"), (std::vector<std::int64_t>{8, 3}));
  EXPECT_TRUE(graph_output_shape(w, "y").empty());
}

TEST(EmptyTensors, ConcatReadsOnlyItsNonEmptyParts) {
  // [0, 4] ++ [2, 4] on axis 0 = [2, 4] (an empty state before the new rows, as ONNX's
  // test_causal_conv_with_state_kernel_size_one_expanded has): one input, the extent unchanged.
  ModelBuilder m("g");
  m.input("a", F32, {2, 4}).input("e", F32, {0, 4}).output("y", F32);
  m.node("Concat", {"e", "a"}, {"c"}, "cat").attr("axis", 0);
  m.node("Relu", {"c"}, {"y"}, "relu");
  const auto w = parse(m);
  const auto& cat = node(w, "cat");
  ASSERT_EQ(cat.inputs.size(), 1u);
  EXPECT_EQ(cat.inputs[0]->name, "a");
  EXPECT_EQ(cat.outputs[0]->shape, (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(graph_output_shape(w, "y"), (std::vector<std::int64_t>{2, 4}));
}

TEST(EmptyTensors, AMatMulOverAnEmptyReductionIsAFillWithNoMacs) {
  // [2, 0] x [0, 3] = [2, 3] of zeros: no MACs; the Add reads the fill as a constant input.
  ModelBuilder m("g");
  m.input("a", F32, {2, 0}).input("b", F32, {0, 3}).input("c", F32, {2, 3}).output("y", F32);
  m.node("MatMul", {"a", "b"}, {"p"}, "mm");
  m.node("Add", {"p", "c"}, {"y"}, "add");
  const auto w = parse(m);
  EXPECT_EQ(total_macs(w), 0);
  ASSERT_EQ(computations(w).size(), 1u);
  const auto& add = node(w, "add");
  EXPECT_EQ(add.inputs[0]->name, "p");
  EXPECT_EQ(add.inputs[0]->shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(graph_output_shape(w, "y"), (std::vector<std::int64_t>{2, 3}));
}

}  // namespace
