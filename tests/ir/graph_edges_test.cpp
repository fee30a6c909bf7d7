// The core boundary and broadcast passes both frontends share: add_graph_edges (which values get
// InEdges/OutEdges, in what order, under what names) and fold_expands (a broadcast read folded
// into its reader's map), on small hand-built graphs.
#include <gtest/gtest.h>

#include <map>

#include <stream/error.hpp>
#include <stream/ir/expand_folding.hpp>
#include <stream/ir/graph_edges.hpp>
#include <stream/ir/iteration_space.hpp>

using namespace stream;

namespace {
AffineExpr d(int i) { return AffineExpr::dim(i); }
AffineExpr c(std::int64_t v) { return AffineExpr::constant(v); }

// "name:kind" per node, kinds abbreviated in/out/op.
std::vector<std::string> outline(const std::vector<Node>& nodes) {
  std::vector<std::string> out;
  for (const auto& n : nodes)
    out.push_back(n.name + ":" + (n.kind == NodeKind::InEdge ? "in" : n.kind == NodeKind::OutEdge ? "out" : "op"));
  return out;
}

// x[2,3] @ w[3,4] -> y; y + k (a constant) -> z. The matmul node is named "x", so x's InEdge
// needs a suffix.
struct Graph {
  std::map<std::string, TensorPtr> tensors{{"x", make_tensor("x", DType::f32, {2, 3})},
                                           {"w", make_tensor("w", DType::f32, {3, 4})},
                                           {"u", make_tensor("u", DType::f32, {4})},
                                           {"s", make_tensor("s", DType::f32, {1})},
                                           {"k", make_tensor("k", DType::f32, {2, 4})},
                                           {"y", make_tensor("y", DType::f32, {2, 4})},
                                           {"z", make_tensor("z", DType::f32, {2, 4})}};
  std::vector<Node> body() const {
    return {make_computation("x", "MatMul", {tensors.at("x"), tensors.at("w")}, {tensors.at("y")},
                             {AffineMap(3, {d(0), d(2)}), AffineMap(3, {d(2), d(1)}), AffineMap(3, {d(0), d(1)})}),
            make_computation("add", "Add", {tensors.at("y"), tensors.at("k")}, {tensors.at("z")},
                             {AffineMap::identity(2), AffineMap::identity(2), AffineMap::identity(2)})};
  }
  GraphEdgeOptions options() const {
    GraphEdgeOptions o;
    o.tensor = [this](const std::string& v) { return tensors.at(v); };
    return o;
  }
};
}  // namespace

TEST(GraphEdges, ListedInputsFirstThenAdmittedReadsThenBodyThenOutputs) {
  Graph g;
  auto o = g.options();
  o.inputs = {{.value = "x"},
              {.value = "w", .unless_produced = true},
              {.value = "u"},                          // unread, unconditional: still an InEdge
              {.value = "s", .unless_unread = true},   // unread: none
              {.value = "y", .unless_produced = true}, // produced by the matmul: none
              {.value = "x"}};                         // listed twice: one InEdge
  std::vector<std::string> admitted;
  o.admit_unbound_read = [&](const Node& reader, const TensorPtr& t) { admitted.push_back(reader.name + "/" + t->name); };
  o.outputs = {{.edge_name = "z", .value = "z"},
               {.edge_name = "result", .value = "z"},  // a second name for z: a second OutEdge
               {.edge_name = "x", .value = "x"},       // an input passed through
               {.edge_name = "gone", .value = "q"}};   // neither produced nor an input: none
  const auto nodes = add_graph_edges(g.body(), o);
  EXPECT_EQ(outline(nodes), (std::vector<std::string>{"x_in:in", "w:in", "u:in", "k:in", "x:op", "add:op", "z:out",
                                                      "result:out", "x_out:out"}));
  EXPECT_EQ(admitted, (std::vector<std::string>{"add/k"}));
  // Edges carry the body's tensors, not copies.
  EXPECT_EQ(nodes[0].outputs[0], g.tensors.at("x"));
  EXPECT_EQ(nodes[3].outputs[0], g.tensors.at("k"));
  EXPECT_EQ(nodes[6].inputs[0], g.tensors.at("z"));
  EXPECT_EQ(nodes[7].inputs[0], g.tensors.at("z"));
  EXPECT_EQ(nodes[8].inputs[0], g.tensors.at("x"));
}

TEST(GraphEdges, OneOutEdgePerValueWhenAsked) {
  Graph g;
  auto o = g.options();
  o.inputs = {{.value = "x"}, {.value = "w"}, {.value = "k"}};
  o.outputs = {{.edge_name = "result", .value = "z"}, {.edge_name = "z", .value = "z"}, {.edge_name = "add", .value = "z"}};
  o.one_out_edge_per_value = true;
  EXPECT_EQ(outline(add_graph_edges(g.body(), o)),
            (std::vector<std::string>{"x_in:in", "w:in", "k:in", "x:op", "add:op", "result:out"}));
  // Without it every output gets its edge, "add" then needs a suffix past the body node.
  o.one_out_edge_per_value = false;
  EXPECT_EQ(outline(add_graph_edges(g.body(), o)),
            (std::vector<std::string>{"x_in:in", "w:in", "k:in", "x:op", "add:op", "result:out", "z:out", "add_out:out"}));
}

TEST(GraphEdges, AnUnboundReadIsAnErrorUnlessAdmitted) {
  Graph g;
  auto o = g.options();
  o.inputs = {{.value = "x"}, {.value = "w"}};
  try {
    (void)add_graph_edges(g.body(), o);
    FAIL() << "k has no producer and no InEdge";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 'k' read by node 'add'"), std::string::npos) << e.what();
  }
  o.admit_unbound_read = [](const Node& reader, const TensorPtr& t) {
    throw Error("rejected " + t->name, Location{.node = reader.name});
  };
  try {
    (void)add_graph_edges(g.body(), o);
    FAIL() << "the caller rejected k";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rejected k"), std::string::npos) << e.what();
  }
}

TEST(ExpandFolding, AReaderReadsTheBroadcastSourceDirectly) {
  // a[1,4] broadcast to e[3,4]; e + b -> z, and a column sum of e -> s[4].
  auto a = make_tensor("a", DType::f32, {1, 4}), e = make_tensor("e", DType::f32, {3, 4});
  auto b = make_tensor("b", DType::f32, {3, 4}), z = make_tensor("z", DType::f32, {3, 4});
  auto s = make_tensor("s", DType::f32, {4});
  std::vector<Node> nodes{make_in_edge("a", a), make_in_edge("b", b),
                          make_computation("expand", "Expand", {a}, {e}, {AffineMap(2, {c(0), d(1)}), AffineMap::identity(2)}),
                          make_computation("add", "Add", {e, b}, {z}, {AffineMap::identity(2), AffineMap::identity(2), AffineMap::identity(2)}),
                          make_computation("sum", "ReduceSum", {e}, {s}, {AffineMap::identity(2), AffineMap(2, {d(1)})}),
                          make_out_edge("z", z), make_out_edge("s", s)};
  const auto folded = fold_expands(nodes);
  EXPECT_EQ(outline(folded), (std::vector<std::string>{"a:in", "b:in", "add:op", "sum:op", "z:out", "s:out"}));
  const auto& add = folded[2];
  EXPECT_EQ(add.inputs[0], a);
  EXPECT_EQ(add.operand_mapping[0].str(), "(d0, d1) -> (0, d1)");
  EXPECT_EQ(loop_sizes(add), (std::vector<std::int64_t>{3, 4}));
  EXPECT_TRUE(add.window_extents.empty());  // b and z still index d0 alone
  const auto& sum = folded[3];
  EXPECT_EQ(sum.inputs[0], a);
  EXPECT_EQ(sum.operand_mapping[0].str(), "(d0, d1) -> (0, d1)");
  // d0 indexed only e's rows: it keeps e's extent 3 as a window, the sum still runs 3 x 4.
  EXPECT_EQ(sum.window_extents, (std::vector<std::pair<int, std::int64_t>>{{0, 3}}));
  EXPECT_EQ(loop_sizes(sum), (std::vector<std::int64_t>{3, 4}));
}

TEST(ExpandFolding, AnExpandAnEdgeReadsStays) {
  auto a = make_tensor("a", DType::f32, {1, 4}), e = make_tensor("e", DType::f32, {3, 4});
  auto z = make_tensor("z", DType::f32, {3, 4});
  std::vector<Node> nodes{make_in_edge("a", a),
                          make_computation("expand", "Expand", {a}, {e}, {AffineMap(2, {c(0), d(1)}), AffineMap::identity(2)}),
                          make_computation("relu", "Relu", {e}, {z}, {AffineMap::identity(2), AffineMap::identity(2)}),
                          make_out_edge("z", z), make_out_edge("e", e)};
  const auto folded = fold_expands(nodes);
  EXPECT_EQ(outline(folded), (std::vector<std::string>{"a:in", "expand:op", "relu:op", "z:out", "e:out"}));
  EXPECT_EQ(folded[2].inputs[0], e);
}

TEST(ExpandFolding, AChainOfExpandsFoldsIntoTheLastReader) {
  // a[1,4] -> [3,4] -> [2,3,4], read by a Relu: the Relu reads a's single row for every (i, j).
  auto a = make_tensor("a", DType::f32, {1, 4}), e1 = make_tensor("e1", DType::f32, {3, 4});
  auto e2 = make_tensor("e2", DType::f32, {2, 3, 4}), z = make_tensor("z", DType::f32, {2, 3, 4});
  std::vector<Node> nodes{make_in_edge("a", a),
                          make_computation("e1", "Expand", {a}, {e1}, {AffineMap(2, {c(0), d(1)}), AffineMap::identity(2)}),
                          make_computation("e2", "Expand", {e1}, {e2}, {AffineMap(3, {d(1), d(2)}), AffineMap::identity(3)}),
                          make_computation("relu", "Relu", {e2}, {z}, {AffineMap::identity(3), AffineMap::identity(3)}),
                          make_out_edge("z", z)};
  const auto folded = fold_expands(nodes);
  EXPECT_EQ(outline(folded), (std::vector<std::string>{"a:in", "relu:op", "z:out"}));
  EXPECT_EQ(folded[1].inputs[0], a);
  EXPECT_EQ(folded[1].operand_mapping[0].str(), "(d0, d1, d2) -> (0, d2)");
  EXPECT_EQ(loop_sizes(folded[1]), (std::vector<std::int64_t>{2, 3, 4}));
}
