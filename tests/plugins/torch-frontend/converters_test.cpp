// ATen -> affine workload: the op table's maps against hand-derived ones, parameters as InEdges,
// layout folding (PyTorch attention == the ONNX attention fixture), expand folding, embedding as a
// data-dependent read, unsupported-operator errors and the two converter registration paths.
#include <algorithm>
#include <map>

#include <gtest/gtest.h>

#include <stream/ir/dimensions.hpp>
#include <stream/ir/iteration_space.hpp>

#include "torch_models.hpp"
#include "torch_test_util.hpp"

#ifdef STREAM_TORCH_TEST_HAVE_ONNX
#include "stream_onnx/onnx_frontend.hpp"
#endif

using namespace stream;
using namespace stream::torch_testing;
using namespace torch_test;
namespace tf = stream::torch_frontend;

namespace {

const std::filesystem::path kFixtures = std::filesystem::path(STREAM_INPUTS_DIR) / "workload" / "torch";
const std::string A = "torch.ops.aten.";

std::vector<std::string> map_strs(const Node& n) {
  std::vector<std::string> out;
  for (const auto& m : n.operand_mapping) out.push_back(m.str());
  return out;
}

std::vector<IteratorKind> kinds(const Node& n) { return iterator_kinds(n); }

constexpr auto P = IteratorKind::Parallel;
constexpr auto R = IteratorKind::Reduction;

}  // namespace

TEST(TorchLowering, MlpLinearIsAMatMulWithTheWeightReadTransposed) {
  const auto w = load_file(kFixtures / "mlp.pt2");
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"MatMul", "Relu", "MatMul", "Relu"}));
  // Parameters become InEdges (constant inputs), the user input too, in signature order.
  std::vector<std::string> in_edges;
  for (auto i : w.nodes_of_kind(NodeKind::InEdge)) in_edges.push_back(w.node(i).name);
  EXPECT_EQ(in_edges, (std::vector<std::string>{"p_fc1_weight", "p_fc1_bias", "p_fc2_weight", "p_fc2_bias", "x"}));
  ASSERT_EQ(w.nodes_of_kind(NodeKind::OutEdge).size(), 1u);
  EXPECT_EQ(w.node(w.nodes_of_kind(NodeKind::OutEdge)[0]).inputs[0]->name, "relu_1");
  // y = x W^T: dims (m, n, k); x(m, k), W[out=n, in=k], y(m, n)
  const auto& fc1 = w.node_by_name("linear");
  EXPECT_EQ(map_strs(fc1), (std::vector<std::string>{"(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d1, d2)",
                                                     "(d0, d1, d2) -> (d0, d1)"}));
  EXPECT_EQ(loop_sizes(fc1), (std::vector<std::int64_t>{4, 32, 16}));
  EXPECT_EQ(kinds(fc1), (std::vector<IteratorKind>{P, P, R}));
  EXPECT_EQ(fc1.inputs.size(), 2u);  // the bias is not an operand (as ONNX Gemm/Conv)
  EXPECT_EQ(loop_sizes(w.node_by_name("linear_1")), (std::vector<std::int64_t>{4, 8, 32}));
  EXPECT_EQ(kinds(w.node_by_name("relu")), (std::vector<IteratorKind>{P, P}));
  for (const auto& t : w.tensors()) EXPECT_EQ(t->dtype, DType::bf16) << t->name;
}

TEST(TorchLowering, CoreAtenPermuteAddmmGivesTheSameNodesAsTrainingLinear) {
  const auto a = load_file(kFixtures / "mlp.pt2");
  const auto b = load_file(kFixtures / "mlp_core_aten_legacy.pt2");
  EXPECT_TRUE(b.nodes_of_kind(NodeKind::FusionEdge).empty()) << "the permutes fold into addmm";
  ASSERT_EQ(a.computation_nodes().size(), b.computation_nodes().size());
  for (std::size_t i = 0; i < a.computation_nodes().size(); ++i) {
    const auto& na = a.node(a.computation_nodes()[i]);
    const auto& nb = b.node(b.computation_nodes()[i]);
    EXPECT_EQ(na.type, nb.type);
    EXPECT_EQ(map_strs(na), map_strs(nb)) << na.name << " vs " << nb.name;
    EXPECT_EQ(loop_sizes(na), loop_sizes(nb));
  }
}

TEST(TorchLowering, ConvBlockMapsFollowTheOnnxConvConvention) {
  const auto w = load_file(kFixtures / "conv_block.pt2");
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"Conv", "Relu", "Conv", "Add", "Relu"}));
  const auto& c1 = w.node_by_name("conv2d");
  // dims b, ox, oy, fx, fy, c, k; input index oy + fy - 1 (pad 1) and ox + fx - 1
  const auto xmap = c1.operand_mapping[0];
  const std::vector<std::int64_t> pt{0, 5, 7, 2, 1, 3, 9};  // b, ox, oy, fx, fy, c, k
  EXPECT_EQ(xmap.eval(pt), (std::vector<std::int64_t>{0, 3, 7 + 1 - 1, 5 + 2 - 1}));
  EXPECT_EQ(c1.operand_mapping[1].eval(pt), (std::vector<std::int64_t>{9, 3, 1, 2}));
  EXPECT_EQ(c1.operand_mapping[2].eval(pt), (std::vector<std::int64_t>{0, 9, 7, 5}));
  EXPECT_EQ(loop_sizes(c1), (std::vector<std::int64_t>{1, 32, 32, 3, 3, 8, 16}));
  EXPECT_EQ(kinds(c1), (std::vector<IteratorKind>{P, P, P, R, R, R, P}));
  EXPECT_EQ(loop_sizes(w.node_by_name("conv2d_1")), (std::vector<std::int64_t>{1, 32, 32, 3, 3, 16, 16}));
  const auto& add = w.node_by_name("add");
  EXPECT_EQ(add.inputs.size(), 2u);
  EXPECT_EQ(add.inputs[1]->name, "relu");  // the residual
}

TEST(TorchLowering, ConvolutionStrideDilationGroupsAndSamePadding) {
  ProgramBuilder p;
  p.parameter("w", "conv.weight", kF32, {8, 2, 3, 3});
  p.input("x", kF32, {1, 8, 16, 16});
  // groups 4 (C/G = 2, K/G = 2), stride (2, 1), dilation (1, 2), pad (1, 2): out 8 x 12
  p.call(A + "convolution.default",
         {{"input", T("x")}, {"weight", T("w")}, {"bias", None()}, {"stride", Is({2, 1})}, {"padding", Is({1, 2})},
          {"dilation", Is({1, 2})}, {"transposed", B(false)}, {"output_padding", Is({0, 0})}, {"groups", I(4)}},
         "convolution", kF32, {1, 8, 8, 16});
  p.output("convolution");
  const auto w = load_program(p.build());
  const auto& n = w.node_by_name("convolution");
  ASSERT_EQ(n.num_dims(), 8);  // b, ox, oy, fx, fy, c, k, g
  const std::vector<std::int64_t> pt{0, 4, 3, 2, 1, 1, 1, 3};
  // H: 2*oy + 1*fy - 1 = 6; W: 1*ox + 2*fx - 2 = 6; channel (g, c) = (3, 1) of x split by group
  // (x [1, 4, 2, 16, 16], w [4, 2, 2, 3, 3]: the group views fold into the graph's tensors).
  EXPECT_EQ(n.inputs[0]->shape, (std::vector<std::int64_t>{1, 4, 2, 16, 16}));
  EXPECT_EQ(n.operand_mapping[0].eval(pt), (std::vector<std::int64_t>{0, 3, 1, 6, 6}));
  EXPECT_EQ(n.operand_mapping[1].eval(pt), (std::vector<std::int64_t>{3, 1, 1, 1, 2}));
  EXPECT_EQ(loop_sizes(n), (std::vector<std::int64_t>{1, 16, 8, 3, 3, 2, 2, 4}));

  ProgramBuilder q;
  q.parameter("w", "conv.weight", kF32, {4, 4, 5, 5});
  q.input("x", kF32, {1, 4, 10, 10});
  q.call(A + "conv2d.padding", {{"input", T("x")}, {"weight", T("w")}, {"padding", S("same")}}, "conv2d", kF32, {1, 4, 10, 10});
  q.output("conv2d");
  const auto wq = load_program(q.build());
  const auto& s = wq.node_by_name("conv2d");
  EXPECT_EQ(s.operand_mapping[0].eval(std::vector<std::int64_t>{0, 0, 0, 0, 0, 0, 0}),
            (std::vector<std::int64_t>{0, 0, -2, -2}));  // "same" with k5: 2 on the left
}

TEST(TorchLowering, ElementwiseBroadcastScalarsAndInPlaceForms) {
  ProgramBuilder p;
  p.input("x", kF32, {2, 4, 8});
  p.input("b", kF32, {4, 1});
  p.call(A + "add.Tensor", {{"self", T("x")}, {"other", T("b")}}, "add", kF32, {2, 4, 8});
  p.call(A + "mul.Tensor", {{"self", T("add")}, {"other", F(0.125)}}, "mul", kF32, {2, 4, 8});
  p.call(A + "gelu.default", {{"self", T("mul")}, {"approximate", S("tanh")}}, "gelu", kF32, {2, 4, 8});
  p.call(A + "silu_.default", {{"self", T("gelu")}}, "silu_", kF32, {2, 4, 8});
  p.call(A + "rsub.Scalar", {{"self", T("silu_")}, {"other", I(1)}}, "rsub", kF32, {2, 4, 8});
  p.call(A + "sigmoid.default", {{"self", T("rsub")}}, "sigmoid", kF32, {2, 4, 8});
  p.call(A + "tanh.default", {{"self", T("sigmoid")}}, "tanh", kF32, {2, 4, 8});
  p.call(A + "div.Tensor", {{"self", T("tanh")}, {"other", T("x")}}, "div", kF32, {2, 4, 8});
  p.call(A + "sub.Tensor", {{"self", T("div")}, {"other", T("x")}}, "sub", kF32, {2, 4, 8});
  p.output("sub");
  const auto w = load_program(p.build());
  EXPECT_EQ(computation_types(w),
            (std::vector<std::string>{"Add", "Mul", "Gelu", "Silu", "Sub", "Sigmoid", "Tanh", "Div", "Sub"}));
  EXPECT_EQ(w.node_by_name("add").operand_mapping[1].str(), "(d0, d1, d2) -> (d1, 0)");
  EXPECT_EQ(w.node_by_name("mul").inputs.size(), 1u);
  for (auto i : w.computation_nodes())
    for (auto k : kinds(w.node(i))) EXPECT_EQ(k, P) << w.node(i).name;
}

TEST(TorchLowering, SoftmaxLayerNormAndReductions) {
  ProgramBuilder p;
  p.input("s", kF32, {2, 4, 4});
  p.call(A + "softmax.int", {{"self", T("s")}, {"dim", I(-1)}}, "softmax", kF32, {2, 4, 4});
  p.call(A + "_softmax.default", {{"self", T("softmax")}, {"dim", I(1)}, {"half_to_float", B(false)}}, "_softmax", kF32, {2, 4, 4});
  p.call(A + "layer_norm.default", {{"input", T("_softmax")}, {"normalized_shape", Is({4, 4})}}, "layer_norm", kF32, {2, 4, 4});
  p.call_multi(A + "native_layer_norm.default",
               {{"input", T("layer_norm")}, {"normalized_shape", Is({4})}, {"weight", None()}, {"bias", None()}, {"eps", F(1e-5)}},
               {{"getitem", {kF32, {2, 4, 4}}}, {"native_layer_norm_unused_1", {kF32, {2, 4, 1}}},
                {"native_layer_norm_unused_2", {kF32, {2, 4, 1}}}});
  p.call(A + "mean.dim", {{"self", T("getitem")}, {"dim", Is({-1})}, {"keepdim", B(true)}}, "mean", kF32, {2, 4, 1});
  p.call(A + "sum.dim_IntList", {{"self", T("getitem")}, {"dim", Is({0, 2})}}, "sum", kF32, {4});
  p.output("mean").output("sum");
  const auto w = load_program(p.build());
  EXPECT_EQ(w.node_by_name("softmax").kind, NodeKind::Normalization);
  EXPECT_EQ(w.node_by_name("softmax").reduction_axes, (std::vector<int>{2}));
  EXPECT_EQ(w.node_by_name("_softmax").reduction_axes, (std::vector<int>{1}));
  EXPECT_EQ(w.node_by_name("layer_norm").type, "LayerNormalization");
  EXPECT_EQ(w.node_by_name("layer_norm").reduction_axes, (std::vector<int>{1, 2}));
  // native_layer_norm: one node (named after its used output), mean and rstd are not modelled
  EXPECT_EQ(w.node_by_name("getitem").reduction_axes, (std::vector<int>{2}));
  const auto& mean = w.node_by_name("mean");
  EXPECT_EQ(mean.type, "ReduceMean");
  EXPECT_EQ(loop_sizes(mean), (std::vector<std::int64_t>{2, 4, 1, 4}));
  EXPECT_EQ(kinds(mean), (std::vector<IteratorKind>{P, P, P, R}));
  const auto& sum = w.node_by_name("sum");
  EXPECT_EQ(sum.operand_mapping[0].str(), "(d0, d1, d2) -> (d1, d0, d2)");
  EXPECT_EQ(kinds(sum), (std::vector<IteratorKind>{P, R, R}));
}

// The loop extents of each node, sorted: two nodes with the same iteration space up to loop order.
std::vector<std::int64_t> sorted_sizes(const Node& n) {
  auto s = loop_sizes(n);
  std::sort(s.begin(), s.end());
  return s;
}
std::vector<int> kind_counts(const Node& n) {
  std::vector<int> c(3, 0);
  for (auto k : iterator_kinds(n)) ++c[static_cast<std::size_t>(k)];
  return c;
}

TEST(TorchLowering, PyTorchAttentionFoldsToTheAttentionContractions) {
  const auto w = load_file(kFixtures / "attention.pt2");
  EXPECT_TRUE(w.nodes_of_kind(NodeKind::FusionEdge).empty()) << "every view/transpose folds";
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"MatMul", "MatMul", "MatMul", "MatMul", "Softmax", "MatMul", "MatMul"}));
  // Hand-derived (workload spec §2.5 worked example): projections (b, s, h, e, k), scores
  // (b, h, i, j, e), context (b, h, i, e, j), output projection (b, s, o, h, e).
  const std::vector<std::int64_t> proj{1, 8, 64, 128, 512}, scores{1, 8, 64, 128, 128}, out{1, 8, 64, 128, 512};
  for (const char* n : {"linear", "linear_1", "linear_2"}) {
    EXPECT_EQ(sorted_sizes(w.node_by_name(n)), proj) << n;
    EXPECT_EQ(kind_counts(w.node_by_name(n)), (std::vector<int>{4, 1, 0})) << n;
  }
  EXPECT_EQ(sorted_sizes(w.node_by_name("matmul")), scores);
  EXPECT_EQ(sorted_sizes(w.node_by_name("matmul_1")), scores);
  EXPECT_EQ(sorted_sizes(w.node_by_name("linear_3")), out);
  EXPECT_EQ(kind_counts(w.node_by_name("linear_3")), (std::vector<int>{3, 2, 0})) << "contracts heads and head dim";
  // the weights are refined into heads: Wq [512 out, 512 in] -> [8, 64, 512]
  for (auto i : w.nodes_of_kind(NodeKind::InEdge))
    if (w.node(i).name == "p_q_proj_weight") {
      EXPECT_EQ(w.node(i).outputs[0]->shape, (std::vector<std::int64_t>{8, 64, 512}));
    }
  EXPECT_EQ(w.node_by_name("softmax").kind, NodeKind::Normalization);
  // The reference attention block's figures (workload spec §4.1): 13 nodes, 14 edges, 8 unique dims.
  EXPECT_EQ(w.size(), 13u);
  EXPECT_EQ(w.edges().size(), 14u);
  EXPECT_EQ(w.unified_dimensions().num_unique(), 8u);
}

#ifdef STREAM_TORCH_TEST_HAVE_ONNX
TEST(TorchLowering, PyTorchAttentionArchiveGivesTheSameNodesAsTheOnnxFixture) {
  Registries reg;
  PluginRegistrar onnx(reg, Provenance{"onnx-frontend", 0, 0});
  onnx_frontend::register_onnx_frontend(onnx);
  PluginRegistrar torch(reg, Provenance{"torch-frontend", 0, 1});
  tf::register_torch_frontend(torch);
  const auto o = reg.load_workload(std::filesystem::path(STREAM_INPUTS_DIR) / "workload" / "attention_pytorch.onnx");
  const auto t = reg.load_workload(kFixtures / "attention.pt2");
  ASSERT_EQ(o.computation_nodes().size(), t.computation_nodes().size());
  EXPECT_EQ(o.nodes_of_kind(NodeKind::FusionEdge).size(), t.nodes_of_kind(NodeKind::FusionEdge).size());
  for (std::size_t i = 0; i < o.computation_nodes().size(); ++i) {
    const auto& a = o.node(o.computation_nodes()[i]);
    const auto& b = t.node(t.computation_nodes()[i]);
    EXPECT_EQ(a.type, b.type) << a.name << " / " << b.name;
    EXPECT_EQ(a.kind, b.kind) << a.name << " / " << b.name;
    EXPECT_EQ(sorted_sizes(a), sorted_sizes(b)) << a.name << " / " << b.name;
    EXPECT_EQ(kind_counts(a), kind_counts(b)) << a.name << " / " << b.name;
    EXPECT_EQ(a.reduction_axes.size(), b.reduction_axes.size()) << a.name << " / " << b.name;
  }
  EXPECT_EQ(o.unified_dimensions().num_unique(), t.unified_dimensions().num_unique());
}
#endif

TEST(TorchLowering, EmbeddingIsADataDependentGatherOfTheTable) {
  ProgramBuilder p;
  p.parameter("p_emb_weight", "emb.weight", kBF16, {100, 32});
  p.input("ids", kI64, {2, 8});
  p.call(A + "embedding.default", {{"weight", T("p_emb_weight")}, {"indices", T("ids")}}, "embedding", kBF16, {2, 8, 32});
  p.output("embedding");
  const auto w = load_program(p.build());
  EXPECT_EQ(w.nodes_of_kind(NodeKind::InEdge).size(), 1u) << "int64 ids are metadata, not a tensor of the IR";
  const auto& g = w.node_by_name("embedding");
  EXPECT_EQ(g.type, "Gather");
  const auto rel = access_relation(g, 0);
  EXPECT_EQ(rel.kind, AccessKind::DataDependent);
  EXPECT_EQ(rel.index_tensor, "ids");
  EXPECT_EQ(access_relation(g, 1).kind, AccessKind::Affine);
  EXPECT_EQ(loop_sizes(g), (std::vector<std::int64_t>{2, 8, 32, 100}));
  EXPECT_EQ(kinds(g), (std::vector<IteratorKind>{P, P, P, R}));
}

TEST(TorchLowering, ExpandFoldsIntoComputationReadersOnly) {
  ProgramBuilder p;
  p.input("x", kF32, {1, 4});
  p.input("b", kF32, {3, 4});
  p.call(A + "expand.default", {{"self", T("x")}, {"size", Is({3, 4})}}, "expand", kF32, {3, 4});
  p.call(A + "add.Tensor", {{"self", T("expand")}, {"other", T("b")}}, "add", kF32, {3, 4});
  p.call(A + "unsqueeze.default", {{"self", T("x")}, {"dim", I(0)}}, "unsqueeze", kF32, {1, 1, 4});
  p.call(A + "expand.default", {{"self", T("unsqueeze")}, {"size", Is({2, 3, 4})}}, "expand_1", kF32, {2, 3, 4});
  p.output("add").output("expand_1");
  const auto w = load_program(p.build());
  const auto& add = w.node_by_name("add");
  EXPECT_EQ(add.inputs[0]->name, "x");
  EXPECT_EQ(add.operand_mapping[0].str(), "(d0, d1) -> (0, d1)");
  EXPECT_EQ(loop_sizes(add), (std::vector<std::int64_t>{3, 4}));
  // expand_1 is a graph output: it stays a broadcast copy (the unsqueeze folds into it)
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"Add", "Expand"}));
  EXPECT_EQ(w.node_by_name("expand_1").inputs[0]->name, "x");
}

TEST(TorchLowering, UnsupportedOperatorsNameTheOpAndHowToRegister) {
  ProgramBuilder p;
  p.input("q", kBF16, {1, 8, 16, 64});
  p.call(A + "cumsum.default", {{"self", T("q")}, {"dim", I(2)}}, "cumsum", kBF16, {1, 8, 16, 64});
  p.call(A + "cumsum.default", {{"self", T("cumsum")}, {"dim", I(3)}}, "cumsum_1", kBF16, {1, 8, 16, 64});
  p.call("torch.ops.mylib.fancy.default", {{"x", T("cumsum_1")}}, "fancy", kBF16, {1, 8, 16, 64});
  p.call("_operator.mul", {{"a", I(2)}, {"b", I(3)}}, "mul", kBF16, {1});  // symbolic arithmetic: skipped
  p.output("fancy");
  const auto doc = p.build();
  const auto msg = error_of([&] { (void)load_program(doc); });
  EXPECT_NE(msg.find("unsupported ATen operator 'aten::cumsum' (target torch.ops.aten.cumsum.default) at node 'cumsum'"),
            std::string::npos) << msg;
  EXPECT_NE(msg.find("add_onnx_parser(\"aten::cumsum\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("provides.onnx_ops"), std::string::npos) << msg;
  EXPECT_NE(msg.find("2 more unsupported call(s)"), std::string::npos) << msg;

  FrontendOptions report;
  report.values["report_unsupported"] = "1";
  const auto all = error_of([&] { (void)load_program(doc, report); });
  EXPECT_NE(all.find("2 unsupported operator(s) in 3 call(s)"), std::string::npos) << all;
  EXPECT_NE(all.find("aten::cumsum  x2"), std::string::npos) << all;
  EXPECT_NE(all.find("mylib::fancy  x1"), std::string::npos) << all;
  EXPECT_EQ(all.find("_operator"), std::string::npos) << all;
}

TEST(TorchLowering, ScaledDotProductAttentionLowersToItsSubOperators) {
  ProgramBuilder p;
  p.input("q", kBF16, {2, 8, 16, 64}).input("k", kBF16, {2, 8, 32, 64}).input("v", kBF16, {2, 8, 32, 48});
  p.input("mask", kBF16, {16, 32});
  p.call(A + "scaled_dot_product_attention.default",
         {{"query", T("q")}, {"key", T("k")}, {"value", T("v")}, {"attn_mask", T("mask")}}, "sdpa", kBF16, {2, 8, 16, 48});
  p.output("sdpa");
  const auto w = load_program(p.build());
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"MatMul", "Add", "Softmax", "MatMul"}));
  for (auto i : w.computation_nodes()) EXPECT_EQ(w.node(i).fused_kernel.value_or(""), "ScaledDotProductAttention:sdpa");
  const auto& scores = w.node(w.computation_nodes()[0]);
  // scores = q k^T: dims (b0, b1, m=16, n=32, k=64); k read as [.., n, k]
  EXPECT_EQ(loop_sizes(scores), (std::vector<std::int64_t>{2, 8, 16, 32, 64}));
  EXPECT_EQ(scores.operand_mapping[1].str(), "(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)");
  EXPECT_EQ(w.node(w.computation_nodes()[1]).operand_mapping[1].str(), "(d0, d1, d2, d3) -> (d2, d3)");
  EXPECT_EQ(w.node(w.computation_nodes()[2]).reduction_axes, (std::vector<int>{3}));
  EXPECT_EQ(loop_sizes(w.node_by_name("sdpa")), (std::vector<std::int64_t>{2, 8, 16, 48, 32}));
}

TEST(TorchLowering, CatReadsEachInputAtItsOffset) {
  ProgramBuilder p;
  p.input("a", kF32, {10, 8}).input("b", kF32, {4, 8});
  p.call(A + "cat.default", {{"tensors", {{"as_tensors", {{{"name", "a"}}, {{"name", "b"}}}}}}}, "cat", kF32, {14, 8});
  p.output("cat");
  const auto w = load_program(p.build());
  const auto& cat = w.node_by_name("cat");
  EXPECT_EQ(cat.type, "Concat");
  EXPECT_EQ(loop_sizes(cat), (std::vector<std::int64_t>{14, 8}));
  EXPECT_EQ(cat.operand_mapping[1].eval(std::vector<std::int64_t>{12, 3}), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(access_relation(cat, 0).kind, AccessKind::PiecewiseAffine);
  EXPECT_EQ(access_relation(cat, 1).kind, AccessKind::PiecewiseAffine);
}

TEST(TorchLowering, SliceAndSelectAreSubRangeReads) {
  ProgramBuilder p;
  p.input("x", kF32, {10, 8});
  p.call(A + "slice.Tensor", {{"self", T("x")}, {"dim", I(0)}, {"start", I(-8)}, {"end", I(9223372036854775807LL)}, {"step", I(2)}},
         "slice", kF32, {4, 8});
  p.call(A + "select.int", {{"self", T("x")}, {"dim", I(1)}, {"index", I(-1)}}, "select", kF32, {10});
  p.output("select").output("slice");
  const auto w = load_program(p.build());
  EXPECT_EQ(w.node_by_name("slice").operand_mapping[0].str(), "(d0, d1) -> (((d0 * 2) + 2), d1)");
  EXPECT_EQ(w.node_by_name("select").operand_mapping[0].str(), "(d0) -> (d0, 7)");
  EXPECT_EQ(loop_sizes(w.node_by_name("slice")), (std::vector<std::int64_t>{4, 8}));
}

TEST(TorchLowering, APluginRegistersAConverterThroughTheOnnxParserRegistry) {
  ProgramBuilder p;
  p.input("q", kBF16, {1, 8, 16, 64});
  p.call(A + "scaled_dot_product_attention.default", {{"query", T("q")}, {"key", T("q")}, {"value", T("q")}, {"is_causal", B(true)}},
         "sdpa", kBF16, {1, 8, 16, 64});
  p.output("sdpa");
  Registries reg;
  OnnxNodeView seen;
  reg.onnx_parsers().add(
      "aten::scaled_dot_product_attention",
      [&seen](const OnnxNodeView& v, OnnxParseContext& ctx) -> std::vector<Node> {
        seen = v;
        auto q = ctx.tensor(v.inputs[0].name), k = ctx.tensor(v.inputs[1].name), val = ctx.tensor(v.inputs[2].name);
        auto y = ctx.tensor(v.outputs[0].name);
        using E = AffineExpr;
        // dims b, h, i, e, j
        const AffineMap qm(5, {E::dim(0), E::dim(1), E::dim(2), E::dim(3)}), km(5, {E::dim(0), E::dim(1), E::dim(4), E::dim(3)});
        return {make_computation(v.name, "Attention", {q, k, val}, {y}, {qm, km, km, qm})};
      },
      Provenance{"my-attention-plugin", 0, 0});
  const auto w = load_program(p.build(), {}, reg);
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"Attention"}));
  EXPECT_EQ(seen.domain, "aten");
  EXPECT_EQ(seen.op_type, "aten::scaled_dot_product_attention");
  EXPECT_EQ(seen.inputs.size(), 3u);
  EXPECT_EQ(seen.attr_int("is_causal", 0), 1);
  EXPECT_EQ(loop_sizes(w.node_by_name("sdpa")), (std::vector<std::int64_t>{1, 8, 16, 64, 16}));
  // A plugin registration also overrides a built-in converter (here: relu).
  ProgramBuilder r;
  r.input("x", kF32, {4});
  r.call(A + "relu.default", {{"self", T("x")}}, "relu", kF32, {4});
  r.output("relu");
  reg.onnx_parsers().add("aten::relu", [](const OnnxNodeView& v, OnnxParseContext& ctx) -> std::vector<Node> {
    return {make_computation(v.name, "MyRelu", {ctx.tensor(v.inputs[0].name)}, {ctx.tensor(v.outputs[0].name)},
                             {AffineMap::identity(1), AffineMap::identity(1)})};
  }, Provenance{"my-plugin", 0, 0});
  EXPECT_EQ(computation_types(load_program(r.build(), {}, reg)), (std::vector<std::string>{"MyRelu"}));
}

TEST(TorchLowering, TheBuiltinTableCanBeExtendedInProcess) {
  ProgramBuilder p;
  p.input("x", kF32, {4, 4});
  p.call("torch.ops.mylib.registered_in_process.default", {{"x", T("x")}}, "y", kF32, {4, 4});
  p.output("y");
  EXPECT_NE(error_of([&] { (void)load_program(p.build()); }).find("mylib::registered_in_process"), std::string::npos);
  tf::AtenConverterTable::builtin().add("mylib::registered_in_process", [](const tf::AtenCall& c, tf::AtenContext& ctx) {
    auto x = ctx.tensor(c.tensor_arg("x"));
    return std::vector<Node>{make_computation(c.name, "Custom", {x}, {ctx.output(0)}, {AffineMap::identity(2), AffineMap::identity(2)})};
  });
  EXPECT_EQ(computation_types(load_program(p.build())), (std::vector<std::string>{"Custom"}));
}

TEST(TorchLowering, GroupedQueryRepeatKvFoldsIntoOneGroupedContraction) {
  // k [1, 2 kv-heads, 16, 8] -> unsqueeze(2) -> expand to 4 repeats -> reshape [1, 8, 16, 8]: the
  // Llama repeat_kv; the scores contraction then reads k once per group without copying it.
  ProgramBuilder p;
  p.input("q", kBF16, {1, 8, 16, 8}).input("k", kBF16, {1, 2, 16, 8});
  p.call(A + "unsqueeze.default", {{"self", T("k")}, {"dim", I(2)}}, "unsqueeze", kBF16, {1, 2, 1, 16, 8});
  p.call(A + "expand.default", {{"self", T("unsqueeze")}, {"size", Is({1, 2, 4, 16, 8})}}, "expand", kBF16, {1, 2, 4, 16, 8});
  p.call(A + "reshape.default", {{"self", T("expand")}, {"shape", Is({1, 8, 16, 8})}}, "reshape", kBF16, {1, 8, 16, 8});
  p.call(A + "transpose.int", {{"self", T("reshape")}, {"dim0", I(-2)}, {"dim1", I(-1)}}, "transpose", kBF16, {1, 8, 8, 16});
  p.call(A + "matmul.default", {{"self", T("q")}, {"other", T("transpose")}}, "matmul", kBF16, {1, 8, 16, 16});
  p.output("matmul");
  const auto w = load_program(p.build());
  ASSERT_EQ(computation_types(w), (std::vector<std::string>{"MatMul"}));
  EXPECT_TRUE(w.nodes_of_kind(NodeKind::FusionEdge).empty());
  const auto& mm = w.node_by_name("matmul");
  EXPECT_EQ(mm.inputs[1]->name, "k");
  // the head loop is split into (group 2, repeat 4); k is indexed by the group only
  EXPECT_EQ(loop_sizes(mm), (std::vector<std::int64_t>{1, 2, 4, 16, 16, 8}));
  const std::vector<std::int64_t> pt{0, 1, 3, 5, 7, 2};
  EXPECT_EQ(mm.operand_mapping[1].eval(pt), (std::vector<std::int64_t>{0, 1, 7, 2}));
  EXPECT_EQ(mm.operand_mapping[0].eval(pt), (std::vector<std::int64_t>{0, 1, 3, 5, 2}));  // q refined [1, 2, 4, 16, 8]
}

TEST(TorchLowering, ARegroupingViewStaysAFusionEdge) {
  ProgramBuilder p;
  p.input("x", kF32, {6, 4});
  p.call(A + "view.default", {{"self", T("x")}, {"size", Is({4, 6})}}, "view", kF32, {4, 6});
  p.call(A + "relu.default", {{"self", T("view")}}, "relu", kF32, {4, 6});
  p.output("relu");
  const auto w = load_program(p.build());
  ASSERT_EQ(w.nodes_of_kind(NodeKind::FusionEdge).size(), 1u);
  EXPECT_EQ(w.node(w.nodes_of_kind(NodeKind::FusionEdge)[0]).type, "Reshape");
  EXPECT_EQ(w.node_by_name("relu").inputs[0]->name, "view");
}

TEST(TorchLowering, SplitPartsMasksAndFactories) {
  ProgramBuilder p;
  p.input("x", kF32, {4, 96});
  // q, k, v = x.split(32, dim=1); only q and v are used
  p.call_multi(A + "split.Tensor", {{"self", T("x")}, {"split_size", I(32)}, {"dim", I(1)}},
               {{"getitem", {kF32, {4, 32}}}, {"getitem_1", {kF32, {4, 32}}}, {"getitem_2", {kF32, {4, 32}}}});
  p.call(A + "add.Tensor", {{"self", T("getitem")}, {"other", T("getitem_2")}}, "add", kF32, {4, 32});
  // a causal mask: bool factory (metadata), masked_fill reads only the data
  p.call(A + "ones.default", {{"size", Is({4, 32})}, {"dtype", {{"as_scalar_type", kBool}}}}, "ones", kBool, {4, 32});
  p.call(A + "masked_fill.Scalar", {{"self", T("add")}, {"mask", T("ones")}, {"value", F(-1e9)}}, "masked_fill", kF32, {4, 32});
  p.call(A + "full.default", {{"size", Is({4, 32})}, {"fill_value", F(0.5)}}, "full", kF32, {4, 32});
  p.call(A + "mul.Tensor", {{"self", T("masked_fill")}, {"other", T("full")}}, "mul", kF32, {4, 32});
  p.output("mul");
  const auto w = load_program(p.build());
  EXPECT_EQ(computation_types(w), (std::vector<std::string>{"Slice", "Slice", "Add", "Where", "Mul"}));
  EXPECT_EQ(w.node_by_name("getitem").operand_mapping[0].str(), "(d0, d1) -> (d0, d1)");
  EXPECT_EQ(w.node_by_name("getitem_2").operand_mapping[0].str(), "(d0, d1) -> (d0, (d1 + 64))");
  EXPECT_EQ(w.node_by_name("masked_fill").inputs.size(), 1u);
  EXPECT_EQ(w.node_by_name("full").kind, NodeKind::InEdge);
  EXPECT_EQ(w.nodes_of_kind(NodeKind::InEdge).size(), 2u);  // x and the materialized constant
}

TEST(TorchLowering, AdvancedIndexingWithOneIndexTensorIsADataDependentGather) {
  // cos_cached[:, position_ids] : [2, 64, 16] indexed on axis 1 by ids [4, 8] -> [2, 4, 8, 16]
  ProgramBuilder p;
  p.buffer("b_cos_cached", "rope.cos_cached", kF32, {2, 64, 16});
  p.input("position_ids", kI64, {4, 8});
  p.call(A + "index.Tensor", {{"self", T("b_cos_cached")}, {"indices", {{"as_optional_tensors", {None(), T("position_ids")}}}}},
         "index", kF32, {2, 4, 8, 16});
  p.output("index");
  const auto w = load_program(p.build());
  const auto& g = w.node_by_name("index");
  EXPECT_EQ(g.type, "Gather");
  EXPECT_EQ(g.operand_mapping[0].str(), "(d0, d1, d2, d3, d4) -> (d0, d4, d3)");
  EXPECT_EQ(loop_sizes(g), (std::vector<std::int64_t>{2, 4, 8, 16, 64}));
  const auto rel = access_relation(g, 0);
  EXPECT_EQ(rel.kind, AccessKind::DataDependent);
  EXPECT_EQ(rel.index_tensor, "position_ids");
  // the buffer is a constant input
  EXPECT_EQ(w.node_by_name("b_cos_cached").kind, NodeKind::InEdge);
}
