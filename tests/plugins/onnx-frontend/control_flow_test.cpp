// If, Loop and Scan resolved at load time (control_flow.hpp): an If with a known condition becomes
// its taken branch, a Loop with a known trip count and a Scan with a static scan extent become
// copies of their body; what cannot be decided is an error naming the node and how to decide it.
#include "onnx_test_util.hpp"
#include "stream_cli.hpp"

using namespace onnx_test;

namespace {

// A subgraph attribute `name` of `n`, built by `build` on an empty GraphProto.
template <class Build>
void graph_attr(NodeRef n, const std::string& name, Build build) {
  auto* a = n.proto().add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto_AttributeType_GRAPH);
  a->mutable_g()->set_name(name);
  build(*a->mutable_g());
}

void add_node(onnx::GraphProto& g, const std::string& op, const std::vector<std::string>& in, const std::string& out,
              const std::string& name) {
  auto* n = g.add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (const auto& i : in) n->add_input(i);
  n->add_output(out);
}

// A typed value of a subgraph; `shaped` false declares the type alone.
void add_value(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name, int elem,
               const Shape& shape, bool shaped = true) {
  auto* v = list->Add();
  v->set_name(name);
  v->mutable_type()->mutable_tensor_type()->set_elem_type(elem);
  if (!shaped) return;
  auto* s = v->mutable_type()->mutable_tensor_type()->mutable_shape();
  for (auto d : shape) s->add_dim()->set_dim_value(d);
}

// A branch computing x @ w (outer-scope tensors), named `tag`.
void matmul_branch(onnx::GraphProto& g, const std::string& w, const std::string& tag) {
  add_node(g, "MatMul", {"x", w}, tag + "_y", tag + "_MatMul");
  add_value(g.mutable_output(), tag + "_y", F32, {}, /*shaped=*/false);
}

// Silero VAD's pattern: If(sr == 16000) choosing between two computations of different sizes.
ModelBuilder sample_rate_model() {
  ModelBuilder m("sr_if", 17);
  m.input("x", F32, {1, 16});
  m.input("sr", I64, {});
  m.initializer("W16k", F32, {16, 32});
  m.initializer("W8k", F32, {16, 8});
  m.int_initializer("k16000", {16000}, /*as_1d=*/false);
  m.node("Equal", {"sr", "k16000"}, {"is16k"}, "Equal");
  auto n = m.node("If", {"is16k"}, {"y"}, "If_sr");
  graph_attr(n, "then_branch", [](onnx::GraphProto& g) { matmul_branch(g, "W16k", "hi"); });
  graph_attr(n, "else_branch", [](onnx::GraphProto& g) { matmul_branch(g, "W8k", "lo"); });
  m.output("y", F32);
  return m;
}

std::size_t count_type(const Workload& w, const std::string& type) {
  const auto nodes = computations(w);
  return static_cast<std::size_t>(std::count_if(nodes.begin(), nodes.end(), [&](const Node* n) { return n->type == type; }));
}

std::string load_error(const ModelBuilder& m, const FrontendOptions& options = {}) {
  try {
    (void)parse(m, options);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ControlFlow, IfOnAGivenInputTakesThatBranch) {
  const auto m = sample_rate_model();
  FrontendOptions hi, lo;
  hi.values["input:sr"] = "16000";
  lo.values["input:sr"] = "8000";
  // 16000: the then branch, x [1,16] @ W16k [16,32] -> [1,32]; 8000: the else branch, -> [1,8].
  const auto w_hi = parse(m, hi);
  EXPECT_EQ(sizes(node(w_hi, "If_sr/hi_MatMul")), (std::vector<std::int64_t>{1, 32, 16}));
  EXPECT_EQ(computations(w_hi).size(), 1u);
  const auto w_lo = parse(m, lo);
  EXPECT_EQ(sizes(node(w_lo, "If_sr/lo_MatMul")), (std::vector<std::int64_t>{1, 8, 16}));
  EXPECT_EQ(computations(w_lo).size(), 1u);
}

TEST(ControlFlow, UndecidedIfNamesTheNodeAndBothWaysToDecideIt) {
  const auto msg = load_error(sample_rate_model());
  EXPECT_NE(msg.find("If node 'If_sr'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("computable from constants"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--input sr=VALUE"), std::string::npos) << msg;
}

// An If deciding between the two MatMul branches on `cond`, built by `condition` from x [1, 16].
template <class Condition>
ModelBuilder if_on(const std::string& tag, Condition condition) {
  ModelBuilder m(tag, 17);
  m.input("x", F32, {1, 16});
  m.initializer("W16k", F32, {16, 32});
  m.initializer("W8k", F32, {16, 8});
  condition(m);
  auto n = m.node("If", {"cond"}, {"y"}, "If_" + tag);
  graph_attr(n, "then_branch", [](onnx::GraphProto& g) { matmul_branch(g, "W16k", "hi"); });
  graph_attr(n, "else_branch", [](onnx::GraphProto& g) { matmul_branch(g, "W8k", "lo"); });
  m.output("y", F32);
  return m;
}

TEST(ControlFlow, IfOnADataDependentCountNamesTheNodeNotAnInputOption) {
  // A detector's post-processing: cond = Shape(NonZero(x))[1] > 0, "any score above zero". The
  // count exists only at run time; --input x=VALUE would be refused (x is not a scalar), so the
  // error names the NonZero and says it is decided at run time.
  const auto msg = load_error(if_on("any", [](ModelBuilder& m) {
    m.node("NonZero", {"x"}, {"nz"}, "scores_nonzero");
    m.node("Shape", {"nz"}, {"s"}, "Shape");
    m.int_initializer("one", {1}, false).int_initializer("zero", {0}, false);
    m.node("Gather", {"s", "one"}, {"count"}, "Gather").attr("axis", 0);
    m.node("Greater", {"count", "zero"}, {"cond"}, "Greater");
  }));
  EXPECT_NE(msg.find("If node 'If_any'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("NonZero 'scores_nonzero'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("decided at run time"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("--input"), std::string::npos) << msg;
}

TEST(ControlFlow, IfOnATensorInputsContentsSaysInputCannotGiveIt) {
  // cond = ReduceSum(x) > 0 over x [1, 16]: the contents of a tensor input, which --input cannot
  // give (scalars only).
  const auto msg = load_error(if_on("sum", [](ModelBuilder& m) {
    m.node("ReduceSum", {"x"}, {"total"}, "ReduceSum").attr("keepdims", 0);
    m.initializer("zero_f", F32, {});
    m.node("Greater", {"total", "zero_f"}, {"cond"}, "Greater");
  }));
  EXPECT_NE(msg.find("If node 'If_sum'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("contents of graph input(s) 'x'"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("--input x=VALUE"), std::string::npos) << msg;
}

TEST(ControlFlow, InputOptionRejectsUnknownNonScalarAndMalformedValues) {
  const auto m = sample_rate_model();
  FrontendOptions unknown, bad, vector;
  unknown.values["input:rate"] = "16000";
  EXPECT_NE(load_error(m, unknown).find("no graph input named 'rate'"), std::string::npos) << load_error(m, unknown);
  bad.values["input:sr"] = "16k";
  EXPECT_NE(load_error(m, bad).find("'16k' is not a value"), std::string::npos) << load_error(m, bad);
  vector.values["input:x"] = "1";
  EXPECT_NE(load_error(m, vector).find("is not a scalar"), std::string::npos) << load_error(m, vector);
}

TEST(ControlFlow, IfOnAShapeComputedConditionNeedsNoOption) {
  // cond = Shape(x)[1] == 16: true for x [1, 16], decided from the static shape alone.
  ModelBuilder m("shape_if", 17);
  m.input("x", F32, {1, 16});
  m.initializer("W16k", F32, {16, 32});
  m.initializer("W8k", F32, {16, 8});
  m.node("Shape", {"x"}, {"s"}, "Shape");
  m.int_initializer("one", {1}, false);
  m.node("Gather", {"s", "one"}, {"n"}, "Gather").attr("axis", 0);
  m.int_initializer("k16", {16}, false);
  m.node("Equal", {"n", "k16"}, {"c"}, "Equal");
  auto n = m.node("If", {"c"}, {"y"}, "If_n");
  graph_attr(n, "then_branch", [](onnx::GraphProto& g) { matmul_branch(g, "W16k", "hi"); });
  graph_attr(n, "else_branch", [](onnx::GraphProto& g) { matmul_branch(g, "W8k", "lo"); });
  m.output("y", F32);
  const auto w = parse(m);
  EXPECT_EQ(sizes(node(w, "If_n/hi_MatMul")), (std::vector<std::int64_t>{1, 32, 16}));
}

// h_{t+1} = h_t @ W (W outer-scope), scan output every h_{t+1}: an RNN-like Loop.
ModelBuilder loop_model(const std::string& trip_count_input) {
  ModelBuilder m("loop", 17);
  m.input("h0", F32, {1, 4});
  m.initializer("W", F32, {4, 4});
  std::string count = "M";
  if (trip_count_input.empty()) m.int_initializer("M", {3}, false);
  else m.input(count = trip_count_input, I64, {});
  auto n = m.node("Loop", {count, "", "h0"}, {"h_final", "h_all"}, "Loop_rnn");
  graph_attr(n, "body", [](onnx::GraphProto& g) {
    add_value(g.mutable_input(), "i", I64, {});
    add_value(g.mutable_input(), "cond_in", onnx::TensorProto_DataType_BOOL, {});
    add_value(g.mutable_input(), "h", F32, {1, 4});
    add_node(g, "Identity", {"cond_in"}, "cond_out", "keep_going");
    add_node(g, "MatMul", {"h", "W"}, "h_next", "step");
    add_node(g, "Identity", {"h_next"}, "h_scan", "record");
    add_value(g.mutable_output(), "cond_out", onnx::TensorProto_DataType_BOOL, {});
    add_value(g.mutable_output(), "h_next", F32, {1, 4});
    add_value(g.mutable_output(), "h_scan", F32, {1, 4});
  });
  m.output("h_final", F32);
  m.output("h_all", F32);
  return m;
}

TEST(ControlFlow, LoopWithAConstantTripCountIsUnrolled) {
  const auto w = parse(loop_model(""));
  // Three iterations, each a [1,4] @ [4,4] MatMul reading the previous one's result, and the
  // Concat that stacks them.
  ASSERT_EQ(count_type(w, "MatMul"), 3u);
  EXPECT_EQ(count_type(w, "Concat"), 1u);
  const auto& it0 = node(w, "Loop_rnn/it0/step");
  const auto& it2 = node(w, "Loop_rnn/it2/step");
  EXPECT_EQ(sizes(it0), (std::vector<std::int64_t>{1, 4, 4}));
  EXPECT_EQ(it0.inputs[0]->name, "h0");
  EXPECT_EQ(it2.inputs[0]->name, node(w, "Loop_rnn/it1/step").outputs[0]->name);
  // The scan output stacks the three [1,4] results along a new axis 0: [3, 1, 4].
  bool found = false;
  for (const auto& n : w.nodes())
    if (n.kind == NodeKind::OutEdge && n.name.rfind("h_all", 0) == 0) {
      EXPECT_EQ(n.inputs[0]->shape, (std::vector<std::int64_t>{3, 1, 4}));
      found = true;
    }
  EXPECT_TRUE(found);
}

TEST(ControlFlow, LoopTripCountFromAnInputNeedsItsValue) {
  const auto m = loop_model("steps");
  const auto msg = load_error(m);
  EXPECT_NE(msg.find("Loop node 'Loop_rnn'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("trip count 'steps'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--input steps=VALUE"), std::string::npos) << msg;
  FrontendOptions two;
  two.values["input:steps"] = "2";
  const auto w = parse(m, two);
  EXPECT_EQ(count_type(w, "MatMul"), 2u);
}

TEST(ControlFlow, LoopThatStopsItselfIsRefused) {
  auto m = loop_model("");
  auto* body = m.model().mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_g();
  // cond_out = i < 1: the body decides when to stop.
  body->mutable_node(0)->set_op_type("Less");
  body->mutable_node(0)->clear_input();
  body->mutable_node(0)->add_input("i");
  body->mutable_node(0)->add_input("M");
  const auto msg = load_error(m);
  EXPECT_NE(msg.find("computes its own stop condition 'cond_out'"), std::string::npos) << msg;
}

TEST(ControlFlow, LoopTooLongToUnrollIsRefused) {
  // 100000 iterations of a 3-node body: 300000 nodes, over the 65536 an unrolling may make.
  auto m = loop_model("");
  for (auto& t : *m.model().mutable_graph()->mutable_initializer())
    if (t.name() == "M") t.set_int64_data(0, 100000);
  const auto msg = load_error(m);
  EXPECT_NE(msg.find("Loop node 'Loop_rnn' runs 100000 iterations of 3 nodes"), std::string::npos) << msg;
}

TEST(ControlFlow, ScanIsUnrolledOverItsScanAxis) {
  // A running sum over the 3 rows of x [3, 2]: state s [2], each step s + x[t]; the scan output
  // stacks the partial sums, [3, 2].
  ModelBuilder m("scan", 17);
  m.input("s0", F32, {2});
  m.input("x", F32, {3, 2});
  auto n = m.node("Scan", {"s0", "x"}, {"s_final", "sums"}, "Scan_sum");
  n.attr("num_scan_inputs", 1);
  graph_attr(n, "body", [](onnx::GraphProto& g) {
    add_value(g.mutable_input(), "s", F32, {2});
    add_value(g.mutable_input(), "row", F32, {2});
    add_node(g, "Add", {"s", "row"}, "s_next", "add");
    add_node(g, "Identity", {"s_next"}, "partial", "record");
    add_value(g.mutable_output(), "s_next", F32, {2});
    add_value(g.mutable_output(), "partial", F32, {2});
  });
  m.output("s_final", F32);
  m.output("sums", F32);
  const auto w = parse(m);
  EXPECT_EQ(node(w, "Scan_sum/it2/add").outputs[0]->shape, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(node(w, "Scan_sum/it0/add").inputs[0]->name, "s0");
  for (const auto& o : w.nodes()) {
    if (o.kind == NodeKind::OutEdge && o.name.rfind("sums", 0) == 0) {
      EXPECT_EQ(o.inputs[0]->shape, (std::vector<std::int64_t>{3, 2}));
    }
  }
}

TEST(ControlFlow, IfNestedInALoopReadsOuterScopeTensors) {
  // Each iteration: If(true) { h @ W } where h is the Loop body's own input and W the graph's.
  auto m = loop_model("");
  auto* body = m.model().mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_g();
  body->mutable_node(1)->set_op_type("If");
  body->mutable_node(1)->clear_input();
  body->mutable_node(1)->add_input("cond_in");
  auto* then_branch = body->mutable_node(1)->add_attribute();
  then_branch->set_name("then_branch");
  then_branch->set_type(onnx::AttributeProto_AttributeType_GRAPH);
  add_node(*then_branch->mutable_g(), "MatMul", {"h", "W"}, "hw", "inner");
  add_value(then_branch->mutable_g()->mutable_output(), "hw", F32, {}, /*shaped=*/false);
  auto* else_branch = body->mutable_node(1)->add_attribute();
  else_branch->set_name("else_branch");
  else_branch->set_type(onnx::AttributeProto_AttributeType_GRAPH);
  add_node(*else_branch->mutable_g(), "Identity", {"h"}, "hid", "skip");
  add_value(else_branch->mutable_g()->mutable_output(), "hid", F32, {}, /*shaped=*/false);
  const auto w = parse(m);
  ASSERT_EQ(count_type(w, "MatMul"), 3u);
  EXPECT_EQ(node(w, "Loop_rnn/it0/step/inner").inputs[0]->name, "h0");
}

}  // namespace

namespace {

TEST(ControlFlow, StreamParseTakesInputValuesFromTheCommandLine) {
  const auto path = sample_rate_model().save_temp("control_flow_cli_sr.onnx").string();
  const auto undecided = stream::test::run_stream("parse " + path);
  EXPECT_EQ(undecided.code, 2) << undecided.out;
  EXPECT_NE(undecided.out.find("--input sr=VALUE"), std::string::npos) << undecided.out;
  const auto decided = stream::test::run_stream("parse " + path + " --input sr=8000");
  EXPECT_EQ(decided.code, 0) << decided.out;
  EXPECT_NE(decided.out.find("If_sr/lo_MatMul"), std::string::npos) << decided.out;
  EXPECT_EQ(decided.out.find("If_sr/hi_MatMul"), std::string::npos) << decided.out;
}

}  // namespace
