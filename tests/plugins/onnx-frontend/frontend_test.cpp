// What the frontend (frontend.cpp) does around the parsers: layout folding (seed "Layout
// operators", spec §2.5) and QDQ folding (spec §2.6): what folds, how the readers' maps and the
// tensors change, and what must stay a FusionEdge or a Cast; Identity and Dropout folded away;
// Constant and ConstantOfShape as constant inputs.
#include <stream/ir/layout_folding.hpp>

#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(LayoutFolding, FlattenIntoGemmSplitsTheContractionAndRefinesTheWeight) {
  ModelBuilder m("g");
  m.input("x", BF16, {1, 8, 16, 16}).initializer("w", BF16, {16, 8, 3, 3}).initializer("gw", BF16, {4096, 10});
  m.output("y", BF16);
  m.node("Conv", {"x", "w"}, {"c"}, "Conv1").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("Relu", {"c"}, {"r"}, "Relu1");
  m.node("Flatten", {"r"}, {"f"}, "Flatten1").attr("axis", 1);
  m.node("Gemm", {"f", "gw"}, {"y"}, "Gemm1");
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& g = node(w, "Gemm1");
  // k (4096) is split into (c, h, w) = (16, 16, 16): dims (m, k0, k1, k2, n).
  EXPECT_EQ(g.inputs[0]->name, "r");
  EXPECT_EQ(map_of(g, 0), "(d0, d1, d2, d3)");
  EXPECT_EQ(g.inputs[1]->shape, (std::vector<std::int64_t>{16, 16, 16, 10}));
  EXPECT_EQ(map_of(g, 1), "(d1, d2, d3, d4)");
  EXPECT_EQ(sizes(g), (std::vector<std::int64_t>{1, 16, 16, 16, 10}));
  EXPECT_EQ(kinds(g), "PRRRP");
}

TEST(LayoutFolding, RegroupStaysAFusionEdge) {
  ModelBuilder m("g");
  m.input("x", F32, {6, 4}).output("y", F32);
  m.int_initializer("shape", {4, 6});
  m.node("Relu", {"x"}, {"a"}, "pre");
  m.node("Reshape", {"a", "shape"}, {"b"}, "regroup");
  m.node("Relu", {"b"}, {"y"}, "post");
  auto w = parse(m);
  ASSERT_EQ(count_kind(w, NodeKind::FusionEdge), 1u);
  EXPECT_EQ(node(w, "regroup").type, "Reshape");
  EXPECT_EQ(node(w, "post").inputs[0]->name, "b");
}

TEST(LayoutFolding, MergedAxisReadThroughAWindowStaysAFusionEdge) {
  ModelBuilder m("g");
  m.input("x", F32, {1, 2, 4, 8}).initializer("w", F32, {2, 2, 3}).output("y", F32);
  m.int_initializer("shape", {1, 2, 32});
  m.node("Relu", {"x"}, {"a"}, "pre");
  m.node("Reshape", {"a", "shape"}, {"b"}, "merge");
  m.node("Conv", {"b", "w"}, {"y"}, "conv1d").attr("kernel_shape", Shape{3}).attr("pads", Shape{1, 1});
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 1u);
  EXPECT_EQ(node(w, "conv1d").inputs[0]->name, "b");
}

TEST(LayoutFolding, SplitOfAnAxisReadThroughAWindowStaysAFusionEdge) {
  // Refining the conv output's width axis would split a loop the conv reads through a window.
  ModelBuilder m("g");
  m.input("x", F32, {1, 2, 8}).initializer("w", F32, {2, 2, 3}).output("y", F32);
  m.int_initializer("shape", {1, 2, 2, 4});
  m.node("Relu", {"x"}, {"r"}, "pre");
  m.node("Conv", {"r", "w"}, {"c"}, "conv1d").attr("kernel_shape", Shape{3}).attr("pads", Shape{1, 1});
  m.node("Reshape", {"r", "shape"}, {"s"}, "split");
  m.node("Relu", {"s"}, {"y"}, "post");
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 1u);
}

TEST(LayoutFolding, IdentityReshapeAndReshapeOntoTheGraphOutputFold) {
  ModelBuilder m("g");
  m.input("x", F32, {1, 8, 4, 4}).output("y", F32);
  m.int_initializer("same", {1, 8, 4, 4}).int_initializer("flat", {1, 128});
  m.node("Relu", {"x"}, {"a"}, "r1");
  m.node("Reshape", {"a", "same"}, {"b"}, "BlockBoundary");
  m.node("Relu", {"b"}, {"c"}, "r2");
  m.node("Reshape", {"c", "flat"}, {"y"}, "to_output");
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  EXPECT_EQ(node(w, "r2").inputs[0]->name, "a");
  // The OutEdge keeps the graph output's name and reads the layout op's input.
  EXPECT_EQ(node(w, "y").inputs[0]->name, "c");
}

TEST(LayoutFolding, TransposeOnAGraphInputFoldsIntoItsReader) {
  ModelBuilder m("g");
  m.input("x", F32, {3, 5}).initializer("w", F32, {3, 7}).output("y", F32);
  m.node("Transpose", {"x"}, {"xt"}, "t");  // default perm reverses the axes
  m.node("MatMul", {"xt", "w"}, {"y"}, "mm");
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  const auto& mm = node(w, "mm");
  EXPECT_EQ(mm.inputs[0]->name, "x");
  EXPECT_EQ(map_of(mm, 0), "(d2, d0)");  // xt[m, k] = x[k, m]
  EXPECT_EQ(sizes(mm), (std::vector<std::int64_t>{5, 7, 3}));
}

TEST(LayoutFolding, SqueezeAndUnsqueezeFold) {
  ModelBuilder m("g", 13);
  m.input("x", F32, {4, 1, 6}).output("y", F32);
  m.int_initializer("ax1", {1}).int_initializer("ax0", {0});
  m.node("Squeeze", {"x", "ax1"}, {"s"}, "squeeze");
  m.node("Relu", {"s"}, {"r"}, "relu");
  m.node("Unsqueeze", {"r", "ax0"}, {"u"}, "unsqueeze");
  m.node("Sigmoid", {"u"}, {"y"}, "sig");
  auto w = parse(m);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  EXPECT_EQ(map_of(node(w, "relu"), 0), "(d0, 0, d1)");
  EXPECT_EQ(node(w, "sig").inputs[0]->name, "r");
  EXPECT_EQ(map_of(node(w, "sig"), 0), "(d1, d2)");
  // The dropped unit loop keeps a known extent.
  EXPECT_EQ(sizes(node(w, "sig")), (std::vector<std::int64_t>{1, 4, 6}));
}

TEST(LayoutFolding, PassOnHandBuiltNodesReportsFoldedAndKept) {
  auto x = make_tensor("x", DType::f32, {6, 4});
  auto y = make_tensor("y", DType::f32, {4, 6});
  auto z = make_tensor("z", DType::f32, {4, 6});
  std::vector<Node> nodes{make_in_edge("x", x), make_fusion_edge("view", "Reshape", x, y),
                          make_computation("relu", "Relu", {y}, {z}, {AffineMap::identity(2), AffineMap::identity(2)}),
                          make_out_edge("z", z)};
  LayoutFoldingReport report;
  auto out = fold_layout_ops(nodes, {}, &report);
  EXPECT_EQ(report.kept, (std::vector<std::string>{"view"}));
  EXPECT_TRUE(report.folded.empty());
  EXPECT_EQ(out.size(), 4u);
}

TEST(LayoutFolding, ReduceSumWithAnotherReaderIsNotFolded) {
  ModelBuilder m("g");
  m.input("a", F32, {4, 8, 16}).initializer("b", F32, {4, 16, 8}).output("s", F32).output("p", F32);
  m.int_initializer("axes", {0});
  m.node("MatMul", {"a", "b"}, {"p"}, "mm");
  m.node("ReduceSum", {"p", "axes"}, {"s"}, "sum").attr("keepdims", 0);
  auto w = parse(m);
  EXPECT_EQ(node(w, "sum").type, "ReduceSum");  // p is also a graph output
  EXPECT_EQ(kinds(node(w, "mm")), "PPPR");
}

TEST(Qdq, QuantizeWithASecondReaderStaysACast) {
  ModelBuilder m("g", 13);
  m.input("x", F32, {2, 4}).output("y", F32).output("q", I8);
  m.initializer("scale", F32, {}).initializer("zp", I8, {});
  m.node("Relu", {"x"}, {"r"}, "relu");
  m.node("QuantizeLinear", {"r", "scale", "zp"}, {"q"}, "quant");
  m.node("Sigmoid", {"r"}, {"y"}, "sig");
  auto w = parse(m);
  const auto& cast = node(w, "quant");
  EXPECT_EQ(cast.type, "Cast");
  EXPECT_EQ(cast.inputs[0]->dtype, DType::f32);
  EXPECT_EQ(cast.outputs[0]->dtype, DType::i8);
  EXPECT_EQ(node(w, "relu").outputs[0]->dtype, DType::f32);
}

TEST(Qdq, DequantizedWeightsFeedAMatMulInInt8AndUint8) {
  ModelBuilder m("g", 13);
  m.input("a", U8, {4, 8}).initializer("w", I8, {8, 16}).initializer("s", F32, {}).initializer("zw", I8, {});
  m.initializer("za", U8, {});
  m.output("y", F32);
  m.node("DequantizeLinear", {"a", "s", "za"}, {"af"}, "dq_a");
  m.node("DequantizeLinear", {"w", "s", "zw"}, {"wf"}, "dq_w");
  m.node("MatMul", {"af", "wf"}, {"y"}, "mm");
  auto w = parse(m);
  const auto& mm = node(w, "mm");
  EXPECT_EQ(mm.inputs[0]->dtype, DType::u8);
  EXPECT_EQ(mm.inputs[1]->dtype, DType::i8);
  EXPECT_EQ(mm.outputs[0]->dtype, DType::f32);
  EXPECT_EQ(w.computation_nodes().size(), 1u);
}

TEST(NoOps, IdentityAndDropoutAreFoldedAway) {
  ModelBuilder m("g", 13);
  m.input("X", F32, {2, 3}).output("Y", F32);
  m.node("Identity", {"X"}, {"i"}, "id");
  m.node("Dropout", {"i"}, {"d", "mask"}, "drop");
  m.node("Relu", {"d"}, {"Y"}, "relu");
  auto w = parse(m);
  EXPECT_EQ(w.computation_nodes().size(), 1u);
  EXPECT_EQ(node(w, "relu").inputs[0]->name, "X");
}

TEST(Constants, ConstantAndConstantOfShapeFeedWeightsAsConstantInputs) {
  ModelBuilder m("g", 13);
  m.input("X", F32, {1, 3, 8, 8}).output("Y", F32);
  auto c = m.node("Constant", {}, {"W"}, "const_w");
  auto* a = c.proto().add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  a->mutable_t()->set_data_type(F32);
  for (auto d : {4, 3, 3, 3}) a->mutable_t()->add_dims(d);
  m.int_initializer("shape", {4});
  m.node("ConstantOfShape", {"shape"}, {"B"}, "zeros");
  m.node("Conv", {"X", "W"}, {"c"}, "conv").attr("kernel_shape", Shape{3, 3});
  m.node("Add", {"c", "B"}, {"Y"}, "bias").proto();
  // Broadcast a [4] bias along the last axis of [1,4,6,6] is invalid; reshape it first instead.
  m.model().mutable_graph()->mutable_node()->RemoveLast();
  m.int_initializer("bias_shape", {4, 1, 1});
  m.node("Reshape", {"B", "bias_shape"}, {"B3"}, "bias_view");
  m.node("Add", {"c", "B3"}, {"Y"}, "bias");
  auto w = parse(m);
  EXPECT_EQ(node(w, "W").kind, NodeKind::InEdge);
  EXPECT_EQ(node(w, "conv").inputs[1]->shape, (std::vector<std::int64_t>{4, 3, 3, 3}));
  EXPECT_EQ(node(w, "B").kind, NodeKind::InEdge);
  EXPECT_EQ(sizes(node(w, "conv")), (std::vector<std::int64_t>{1, 6, 6, 3, 3, 3, 4}));
  EXPECT_EQ(map_of(node(w, "bias"), 1), "(d1)");  // the reshape folded: B[4] read at the channel
}


}  // namespace

namespace {

TEST(Int64Data, AHeadSizeCastToFloatIsEvaluatedAtLoadTime) {
  // The expanded Attention's scale: 1 / sqrt(float(shape(Q)[-1])). The head size is known from
  // Q's static shape, so the Cast and the Sqrt are evaluated at load time (constant subgraphs):
  // the Div reads the scalar sqrt(8) as a constant.
  ModelBuilder m("g");
  m.input("Q", F32, {1, 4, 8}).output("Y", F32);
  m.int_initializer("last", {2}, false);
  m.node("Shape", {"Q"}, {"q_shape"}, "shape");
  m.node("Gather", {"q_shape", "last"}, {"head"}, "head_size");
  m.node("Cast", {"head"}, {"head_f"}, "to_float").attr("to", F32);
  m.node("Sqrt", {"head_f"}, {"root"}, "sqrt");
  m.node("Div", {"Q", "root"}, {"Y"}, "scale");
  const auto w = parse(m);
  EXPECT_EQ(w.computation_nodes().size(), 1u);
  const auto& div = node(w, "scale");
  ASSERT_EQ(div.inputs.size(), 2u);
  EXPECT_EQ(div.inputs[1]->name, "root");
  EXPECT_TRUE(div.inputs[1]->shape.empty());
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{1, 4, 8}));
}

TEST(Int64Data, AnInt64InputCastToFloatIsDataAtSixtyFourBits) {
  // A head size given as a graph input is not known at load time: the Cast reads it as i64 data.
  ModelBuilder m("g");
  m.input("Q", F32, {1, 4, 8}).input("head", I64, {1}).output("Y", F32);
  m.node("Cast", {"head"}, {"head_f"}, "to_float").attr("to", F32);
  m.node("Div", {"Q", "head_f"}, {"Y"}, "scale");
  const auto w = parse(m);
  const auto& cast = node(w, "to_float");
  EXPECT_EQ(cast.inputs[0]->dtype, DType::i64);
  EXPECT_EQ(cast.outputs[0]->dtype, DType::f32);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{1, 4, 8}));
}

TEST(Int64Data, AnInt64ExponentTensorIsAnOperandAConstantOneAParameter) {
  ModelBuilder m("g");
  m.input("X", F32, {3}).input("E", I64, {3}).initializer("c", I64, {3}).output("Y", F32).output("Z", F32);
  m.node("Pow", {"X", "E"}, {"Y"}, "pow_data");
  m.node("Pow", {"X", "c"}, {"Z"}, "pow_const");
  const auto w = parse(m);
  ASSERT_EQ(node(w, "pow_data").inputs.size(), 2u);
  EXPECT_EQ(node(w, "pow_data").inputs[1]->dtype, DType::i64);
  EXPECT_TRUE(has_in_edge(w, "E"));
  EXPECT_EQ(node(w, "pow_const").inputs.size(), 1u);
}

}  // namespace
