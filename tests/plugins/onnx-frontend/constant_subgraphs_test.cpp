// Subgraphs that read no graph input are evaluated at load time (constant_subgraphs.hpp): their
// nodes are not in the workload, their outputs are constants read through InEdges.
#include "onnx_test_util.hpp"

#include "constant_subgraphs.hpp"

using namespace onnx_test;

namespace {

struct Spec {
  std::string op, domain;
  std::vector<std::string> inputs, outputs;
};

std::vector<bool> fold(const std::vector<Spec>& specs, const std::vector<std::string>& stored,
                       const std::vector<std::string>& graph_outputs = {}) {
  std::vector<onnx_frontend::ConstantCandidate> view;
  for (const auto& s : specs) view.push_back({&s.op, &s.domain, &s.inputs, &s.outputs});
  auto in = [](const std::vector<std::string>& list) {
    return [list](const std::string& v) { return std::find(list.begin(), list.end(), v) != list.end(); };
  };
  return onnx_frontend::fold_constant_nodes(view, in(stored), in(graph_outputs));
}

TEST(ConstantSubgraphs, NodesReadingOnlyConstantsFoldAndThoseReadingInputsStay) {
  // cos = Cos(Mul(t, f)) from constants t, f; y = Mul(x, cos) reads the input x.
  const auto folded = fold({{"Mul", "", {"t", "f"}, {"tf"}}, {"Cos", "", {"tf"}, {"cos"}}, {"Mul", "", {"x", "cos"}, {"y"}}},
                           {"t", "f"});
  EXPECT_EQ(folded, (std::vector<bool>{true, true, false}));
}

TEST(ConstantSubgraphs, RandomAndQuantizationNodesAndCustomDomainsStay) {
  const auto folded = fold({{"RandomNormalLike", "", {"w"}, {"r"}},
                            {"DequantizeLinear", "", {"q", "s"}, {"dq"}},
                            {"Gelu", "com.example", {"w"}, {"g"}}},
                           {"w", "q", "s"});
  EXPECT_EQ(folded, (std::vector<bool>{false, false, false}));
}

TEST(ConstantSubgraphs, LayoutViewOfAWeightStaysWhileAKeptNodeReadsIt) {
  // Wt = Transpose(W) read by MatMul(x, Wt): stays (a FusionEdge on the weight). V = Reshape(U)
  // read only by a folded Add: folds with it.
  const auto folded = fold({{"Transpose", "", {"W"}, {"Wt"}},
                            {"MatMul", "", {"x", "Wt"}, {"y"}},
                            {"Reshape", "", {"U", "shape"}, {"V"}},
                            {"Add", "", {"V", "b"}, {"Vb"}},
                            {"Mul", "", {"x", "Vb"}, {"z"}}},
                           {"W", "U", "shape", "b"});
  EXPECT_EQ(folded, (std::vector<bool>{false, false, true, true, false}));
}

TEST(ConstantSubgraphs, RotaryTableFromShapeArithmeticIsAConstant) {
  // seq = Shape(x)[1] = 6 cast to float; t = Range(0, seq, 1) [6]; freqs = Einsum(i,j->ij, t,
  // inv_freq [8]) [6, 8]; emb = Concat(freqs, freqs) [6, 16]; y = x * Cos(emb): only the Mul
  // remains, reading x [1, 6, 16] and a [6, 16] constant.
  ModelBuilder m("rotary", 17);
  m.input("x", F32, {1, 6, 16});
  m.initializer("inv_freq", F32, {8});
  m.node("Shape", {"x"}, {"s"}, "Shape");
  m.int_initializer("one", {1}, false);
  m.node("Gather", {"s", "one"}, {"seq"}, "Gather").attr("axis", 0);
  m.node("Cast", {"seq"}, {"seq_f"}, "Cast").attr("to", static_cast<std::int64_t>(F32));
  auto scalar = [&](const std::string& name, float v) {
    auto* t = m.model().mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(F32);
    t->add_float_data(v);
  };
  scalar("zero", 0.0F);
  scalar("step", 1.0F);
  m.node("Range", {"zero", "seq_f", "step"}, {"t"}, "Range");
  m.node("Einsum", {"t", "inv_freq"}, {"freqs"}, "Einsum").attr("equation", "i,j->ij");
  m.node("Concat", {"freqs", "freqs"}, {"emb"}, "Concat").attr("axis", -1);
  m.node("Cos", {"emb"}, {"cos"}, "Cos");
  m.node("Mul", {"x", "cos"}, {"y"}, "Mul");
  m.output("y", F32);
  const auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 1u);
  const auto& mul = node(w, "Mul");
  EXPECT_EQ(mul.inputs[1]->name, "cos");
  EXPECT_EQ(mul.inputs[1]->shape, (std::vector<std::int64_t>{6, 16}));
  EXPECT_EQ(sizes(mul), (std::vector<std::int64_t>{1, 6, 16}));
  for (const auto& n : w.nodes()) EXPECT_TRUE(n.type != "Cos" && n.type != "Einsum" && n.type != "Range") << n.name;
}

TEST(ConstantSubgraphs, IndexTableComputedFromConstantsGathersAConstantBias) {
  // Swin's pattern, 3x3 window: index = Range(0, 9) * 1 + 0 reshaped [3, 3]... gathered from the
  // bias table [25, 2]: bias [3, 3, 2], transposed [2, 3, 3], added to scores [1, 2, 3, 3].
  ModelBuilder m("swin_bias", 17);
  m.input("scores", F32, {1, 2, 3, 3});
  m.initializer("table", F32, {25, 2});
  m.int_initializer("r0", {0}, false);
  m.int_initializer("r9", {9}, false);
  m.int_initializer("r1", {1}, false);
  m.node("Range", {"r0", "r9", "r1"}, {"flat"}, "Range");
  m.int_initializer("three", {3}, false);
  m.node("Mul", {"flat", "three"}, {"idx"}, "Scale");
  m.int_initializer("shape33", {3, 3});
  m.node("Reshape", {"idx", "shape33"}, {"idx33"}, "IndexShape");
  m.node("Gather", {"table", "idx33"}, {"bias"}, "GatherBias").attr("axis", 0);
  m.node("Transpose", {"bias"}, {"bias_t"}, "BiasT").attr("perm", Shape{2, 0, 1});
  m.node("Add", {"scores", "bias_t"}, {"y"}, "AddBias");
  m.output("y", F32);
  const auto w = parse(m);
  ASSERT_EQ(computations(w).size(), 1u);
  EXPECT_EQ(node(w, "AddBias").inputs[1]->shape, (std::vector<std::int64_t>{2, 3, 3}));
  EXPECT_EQ(w.nodes_of_kind(NodeKind::FusionEdge).size(), 0u);
}

}  // namespace
