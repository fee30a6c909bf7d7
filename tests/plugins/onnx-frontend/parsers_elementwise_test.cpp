// The element-wise parsers (parsers_elementwise.cpp) against hand-derived maps, loop sizes and
// iterator kinds (workload spec §2.4; where the reference is wrong, spec §9, the correct semantics).
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(Elementwise, BroadcastMapsAreRightAligned) {
  ModelBuilder m("g");
  m.input("A", F32, {2, 4, 8}).input("B", F32, {4, 1}).input("C", F32, {8}).input("P", F32, {4, 1}).input("Q", F32, {1, 8});
  m.input("M", F32, {4, 8}).initializer("s", F32, {1, 1}).initializer("e", F32, {});
  m.output("y1", F32).output("y2", F32).output("y3", F32).output("y4", F32).output("y5", F32);
  m.node("Add", {"A", "B"}, {"y1"}, "add_col");
  m.node("Add", {"A", "C"}, {"y2"}, "add_bias");
  m.node("Mul", {"P", "Q"}, {"y3"}, "outer");
  m.node("Mul", {"M", "s"}, {"y4"}, "scale");
  m.node("Pow", {"M", "e"}, {"y5"}, "pow");
  auto w = parse(m);
  EXPECT_EQ(map_of(node(w, "add_col"), 1), "(d1, 0)");
  EXPECT_EQ(map_of(node(w, "add_bias"), 1), "(d2)");
  EXPECT_EQ(map_of(node(w, "outer"), 0), "(d0, 0)");
  EXPECT_EQ(map_of(node(w, "outer"), 1), "(0, d1)");
  EXPECT_EQ(map_of(node(w, "scale"), 0), "(d0, d1)");
  EXPECT_EQ(map_of(node(w, "scale"), 1), "(0, 0)");
  EXPECT_EQ(map_of(node(w, "pow"), 1), "()");
  EXPECT_EQ(kinds(node(w, "add_col")), "PPP");
}

TEST(Elementwise, BroadcastMismatchIsAnErrorNamingTheTensor) {
  ModelBuilder m("g");
  m.input("A", F32, {4, 8}).input("B", F32, {3, 8}).output("y", F32, {4, 8});
  m.node("Sub", {"A", "B"}, {"y"}, "bad_sub");
  expect_error([&] { (void)parse(m); }, {"bad_sub", "B", "broadcast"});
}

// The operators of later opsets and the rarer unary ones, at opset 24 (Swish's; our shape rules
// give Swish, BitwiseNot and the Bitwise binaries their shapes): one point per output element;
// CumSum's axis is an int64 parameter, not an operand; BitwiseAnd broadcasts (4) onto (3, 4).
TEST(Elementwise, LaterAndRarerOperatorsAreElementwise) {
  const std::vector<std::string> unary{"Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
                                       "Swish", "Shrink", "CumProd"};
  ModelBuilder m("g", 26);
  m.input("X", F32, {3, 4}).input("I", I32, {3, 4}).input("J", I32, {4}).int_initializer("axis", {1}, false);
  for (const auto& op : unary) {
    m.node(op, op == "CumProd" ? std::vector<std::string>{"X", "axis"} : std::vector<std::string>{"X"}, {"u_" + op}, op);
    m.output("u_" + op, F32);
  }
  m.node("CumSum", {"X", "axis"}, {"cs"}, "CumSum");
  m.node("BitwiseNot", {"I"}, {"bn"}, "BitwiseNot");
  m.node("BitwiseAnd", {"I", "J"}, {"ba"}, "BitwiseAnd");
  m.output("cs", F32).output("bn", I32).output("ba", I32);
  auto w = parse(m);
  for (const auto& op : unary) {
    EXPECT_EQ(graph_output_shape(w, "u_" + op), (std::vector<std::int64_t>{3, 4})) << op;
    EXPECT_EQ(node(w, op).inputs.size(), 1u) << op;
  }
  EXPECT_EQ(node(w, "CumSum").inputs.size(), 1u);
  EXPECT_EQ(graph_output_shape(w, "bn"), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(graph_output_shape(w, "ba"), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(map_of(node(w, "BitwiseAnd"), 1), "(d1)");
}

TEST(Elementwise, EveryUnaryAndVariadicOperatorParses) {
  const std::vector<std::string> unary{"Relu", "Gelu", "Sigmoid", "Tanh", "Exp", "Sqrt", "Erf", "LeakyRelu", "HardSigmoid",
                                       "HardSwish", "Neg", "Abs", "Reciprocal", "Clip"};
  ModelBuilder m("g");
  m.input("X", F32, {3, 5}).input("Z", F32, {5}).initializer("lo", F32, {}).initializer("hi", F32, {});
  std::vector<std::string> outs;
  for (const auto& op : unary) {
    std::vector<std::string> ins{"X"};
    if (op == "Clip") ins = {"X", "lo", "hi"};
    m.node(op, ins, {"u_" + op}, op);
    m.output("u_" + op, F32);
  }
  for (const std::string op : {"Sum", "Max", "Min", "Mean"}) {
    m.node(op, {"X", "Z", "X"}, {"v_" + op}, op);
    m.output("v_" + op, F32);
  }
  auto w = parse(m);
  for (const auto& op : unary) {
    const auto& n = node(w, op);
    EXPECT_EQ(n.type, op);
    EXPECT_EQ(n.inputs.size(), 1u) << op;  // Clip's bounds are parameters
    EXPECT_EQ(sizes(n), (std::vector<std::int64_t>{3, 5})) << op;
  }
  for (const std::string op : {"Sum", "Max", "Min", "Mean"}) {
    const auto& n = node(w, op);
    EXPECT_EQ(n.inputs.size(), 3u);
    EXPECT_EQ(map_of(n, 1), "(d1)");
  }
}

TEST(Elementwise, CastKeepsBothElementTypes) {
  ModelBuilder m("g");
  m.input("X", F32, {2, 3}).output("Y", F16);
  m.node("Cast", {"X"}, {"Y"}, "cast").attr("to", F16);
  auto w = parse(m);
  const auto& n = node(w, "cast");
  EXPECT_EQ(n.inputs[0]->dtype, DType::f32);
  EXPECT_EQ(n.outputs[0]->dtype, DType::f16);
}

}  // namespace
