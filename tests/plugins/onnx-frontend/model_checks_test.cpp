// Malformed and unsupported models: one stream::Error naming the file, the node and the problem,
// before anything is parsed; `--report-unsupported` lists every unsupported op type at once.
#include "stream_cli.hpp"

#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

TEST(Malformed, ShapeArithmeticReadingAValueNothingProduces) {
  ModelBuilder m("g");
  m.input("x", F32, {2, 6}).output("y", F32);
  m.node("Shape", {"ghost"}, {"s"}, "shape_of_ghost");
  m.node("Reshape", {"x", "s"}, {"y"}, "reshape");
  expect_error([&] { (void)parse(m); },
               {".onnx", "malformed ONNX model", "node 'shape_of_ghost'", "'ghost'", "not a graph input, an initializer"});
}

TEST(Malformed, AnOpsetBelowOneIsRefusedNotCosted) {
  for (std::int64_t version : {0, -5}) {
    ModelBuilder m("g", version);
    m.input("x", F32, {2, 6}).output("y", F32, {2, 6}, true);
    m.node("Relu", {"x"}, {"y"}, "relu");
    expect_error([&] { (void)parse(m); },
                 {".onnx", "opset_import of domain 'ai.onnx' has version " + std::to_string(version),
                  "operator set versions start at 1"});
  }
}

TEST(Malformed, GraphOutputNothingProduces) {
  ModelBuilder m("g");
  m.input("x", F32, {2, 6}).output("y", F32).output("lost", F32);
  m.node("Relu", {"x"}, {"y"}, "relu");
  expect_error([&] { (void)parse(m); }, {".onnx", "graph output 'lost' is not produced by any node"});
}

TEST(Malformed, CycleNamesItsNodes) {
  ModelBuilder m("g");
  m.input("x", F32, {2, 6}).output("y", F32);
  m.node("Add", {"x", "b"}, {"a"}, "add");
  m.node("Sigmoid", {"a"}, {"b"}, "sigmoid");
  m.node("Relu", {"a"}, {"y"}, "relu");
  expect_error([&] { (void)parse(m); }, {".onnx", "the graph has a cycle", "'add' -> 'sigmoid' -> 'add'"});
}

TEST(Malformed, NodesOutOfOrderAreSortedNotRejected) {
  // Relu is listed before the Sigmoid that produces its input: acyclic, so it is sorted.
  ModelBuilder m("g");
  m.input("x", F32, {2, 6}).output("y", F32);
  m.node("Relu", {"h"}, {"y"}, "relu");
  m.node("Sigmoid", {"x"}, {"h"}, "sigmoid");
  auto w = parse(m);
  EXPECT_EQ(sizes(node(w, "relu")), (std::vector<std::int64_t>{2, 6}));
  EXPECT_LT(w.index_of("sigmoid"), w.index_of("relu"));
}

TEST(Malformed, TwoProducersOfOneValue) {
  ModelBuilder m("g");
  m.input("x", F32, {2, 6}).output("y", F32);
  m.node("Relu", {"x"}, {"h"}, "first");
  m.node("Sigmoid", {"x"}, {"h"}, "second");
  m.node("Tanh", {"h"}, {"y"}, "tanh");
  expect_error([&] { (void)parse(m); }, {".onnx", "value 'h' is written by node 'first' and by node 'second'"});
  ModelBuilder over("g");
  over.input("x", F32, {2, 6}).output("x2", F32);
  over.node("Relu", {"x"}, {"x"}, "overwrite");
  over.node("Relu", {"x"}, {"x2"}, "relu");
  expect_error([&] { (void)parse(over); }, {".onnx", "node 'overwrite' writes 'x', which is already a graph input"});
}

TEST(Malformed, AttributeOfTheWrongType) {
  ModelBuilder m("g");
  m.input("x", F32, {1, 3, 8, 8}).initializer("w", F32, {4, 3, 3, 3}).output("y", F32);
  m.node("Conv", {"x", "w"}, {"y"}, "conv").attr("strides", 2.0f);
  expect_error([&] { (void)parse(m); },
               {".onnx", "attribute 'strides' of node 'conv' (Conv) is FLOAT, but Conv declares it INTS"});
  ModelBuilder perm("g");
  perm.input("x", F32, {2, 3}).output("y", F32);
  perm.node("Transpose", {"x"}, {"y"}, "t").attr("perm", "1,0");
  expect_error([&] { (void)parse(perm); }, {".onnx", "attribute 'perm' of node 't' (Transpose) is STRING, but Transpose declares it INTS"});
}

TEST(Malformed, NegativeExtents) {
  ModelBuilder neg("g");
  neg.input("x", F32, {2, -3}).output("y", F32);
  neg.node("Relu", {"x"}, {"y"}, "relu");
  expect_error([&] { (void)parse(neg); }, {".onnx", "graph input 'x' declares extent -3 on axis 1", "cannot be negative"});
  ModelBuilder init("g");
  init.input("x", F32, {2, 3}).initializer("b", F32, {-1}).output("y", F32);
  init.node("Add", {"x", "b"}, {"y"}, "add");
  expect_error([&] { (void)parse(init); }, {".onnx", "initializer 'b' declares extent -1"});
  // Extent 0 is legal (an empty tensor): scenarios/empty_tensors_test.cpp.
}

TEST(Malformed, ZeroOrNegativeWindowGeometryIsAnErrorNotSigfpe) {
  // ONNX shape inference divides the padded extent by the stride (and by the dilation): a 0 there
  // killed the process with SIGFPE before this check. Each case is one node on a 1x1x4x4 input.
  struct Case {
    const char* op;
    const char* attr;
    std::vector<std::int64_t> value;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"Conv", "strides", {0, 0}, "has 0 on spatial axis 0"},
      {"Conv", "dilations", {1, 0}, "has 0 on spatial axis 1"},
      {"MaxPool", "strides", {0, 0}, "has 0 on spatial axis 0"},
      {"AveragePool", "strides", {1, -1}, "has -1 on spatial axis 1"},
      {"LpPool", "strides", {0, 0}, "has 0 on spatial axis 0"},
      {"MaxPool", "kernel_shape", {0, 2}, "has 0 on spatial axis 0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.op) + " " + c.attr);
    ModelBuilder m("g");
    m.input("x", F32, {1, 1, 4, 4}).output("y", F32);
    const bool conv = std::string(c.op) == "Conv";
    if (conv) m.initializer("w", F32, {1, 1, 2, 2});
    auto n = m.node(c.op, conv ? std::vector<std::string>{"x", "w"} : std::vector<std::string>{"x"}, {"y"}, "win");
    if (std::string(c.attr) != "kernel_shape" && !conv) n.attr("kernel_shape", std::vector<std::int64_t>{2, 2});
    n.attr(c.attr, c.value);
    expect_error([&] { (void)parse(m); },
                 {".onnx", "node 'win'", std::string("attribute '") + c.attr + "'", c.expected, "at least 1"});
  }
}

TEST(Malformed, ConvWeightOfAnotherRankThanItsInputIsAnErrorNotACrash) {
  // Found by fuzz/onnx (fuzz/regressions/onnx/conv-weight-rank-above-input.onnx): with no
  // kernel_shape, ONNX's Conv inference takes the kernel from the weight's axes 2.. (two here) and
  // reads that many spatial axes of the rank-3 input (one): the process died of SIGSEGV before.
  ModelBuilder m("g");
  m.input("x", F32, {1, 1, 4}).output("y", F32);
  m.initializer("w", F32, {1, 1, 2, 2});
  m.node("Conv", {"x", "w"}, {"y"}, "conv");
  expect_error([&] { (void)parse(m); },
               {"node 'conv' (Conv) convolves 'x' of rank 3 with weight 'w' of rank 4", "the ranks must be equal"});
}

TEST(Malformed, ZeroStridesExitTwoFromTheCli) {
  // The process died of SIGFPE (exit 136 from a shell) before; now it is a bad-input exit 2.
  ModelBuilder m("g");
  m.input("x", F32, {1, 1, 4, 4}).output("y", F32);
  m.node("MaxPool", {"x"}, {"y"}, "pool")
      .attr("kernel_shape", std::vector<std::int64_t>{2, 2})
      .attr("strides", std::vector<std::int64_t>{0, 0});
  const auto model = m.save_temp(test_file());
  const auto run = stream::test::run_stream("parse " + model.string());
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_NE(run.out.find(model.string() + ": node 'pool'"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("attribute 'strides' of node 'pool' (MaxPool) has 0"), std::string::npos) << run.out;
}

TEST(Malformed, AShapeTensorOfAbsurdLengthIsAnErrorNotAHang) {
  // ConstantOfShape([2^40]) is an int tensor of 2^40 values, given to Expand as a shape: ONNX's
  // own inference would build 2^40 axes. (A fuzzed Reshape target did this to the ViT export.)
  ModelBuilder m("g", 13);
  m.input("x", F32, {1}).output("y", F32);
  m.int_initializer("huge", {std::int64_t{1} << 40});
  auto fill = m.node("ConstantOfShape", {"huge"}, {"ones"}, "ones");
  auto* value = fill.proto().add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  value->mutable_t()->set_data_type(I64);
  value->mutable_t()->add_dims(1);
  value->mutable_t()->add_int64_data(1);
  m.node("Expand", {"x", "ones"}, {"y"}, "expand");
  expect_error([&] { (void)parse(m); },
               {".onnx", "node 'expand' (Expand) takes its shape from 'ones', a tensor of 1099511627776 values",
                "no tensor has more than 64 axes"});
}

// Two unsupported op types in a custom domain, one of them on three nodes.
ModelBuilder unsupported_model() {
  ModelBuilder m("g");
  m.opset("com.acme", 1);
  m.input("x", F32, {2, 3}).output("y", F32);
  m.node("FooOp", {"x"}, {"f0"}, "foo_0", "com.acme");
  m.node("Relu", {"f0"}, {"r"}, "relu");
  m.node("BarOp", {"r"}, {"b"}, "bar", "com.acme");
  m.node("FooOp", {"b"}, {"f1"}, "foo_1", "com.acme");
  m.node("FooOp", {"f1"}, {"y"}, "foo_2", "com.acme");
  return m;
}

TEST(ReportUnsupported, ListsEveryOpTypeWithItsCountAndFirstNode) {
  FrontendOptions report;
  report.values["report_unsupported"] = "1";
  expect_error([&] { (void)parse(unsupported_model(), report); },
               {".onnx", "2 unsupported ONNX operator type(s) in 4 node(s)",
                "FooOp (domain 'com.acme')  x3, first at node 'foo_0'",
                "BarOp (domain 'com.acme')  x1, first at node 'bar'", "add_onnx_parser"});
  // Without the option: the first unsupported node is the error, pointing at the option.
  expect_error([&] { (void)parse(unsupported_model()); },
               {".onnx", "unsupported ONNX operator 'FooOp' (domain 'com.acme') at node 'foo_0'",
                "3 more unsupported node(s)", "--report-unsupported"});
}

// An int64 value computed at run time from a graph input (Swin's relative-position index was one
// before constant subgraphs were evaluated, issue 37) and read as data through a Cast: the
// element-type error, which --report-unsupported did not list, is listed with the op types.
ModelBuilder int64_data_model(bool with_unsupported_op) {
  ModelBuilder m("g");
  m.opset("com.acme", 1);
  m.input("pos", I64, {1, 16}).input("x", F32, {1, 16}).output("y", F32);
  m.int_initializer("one", {1});
  m.node("Add", {"pos", "one"}, {"pos1"}, "add_pos");
  m.node("Cast", {"pos1"}, {"posf"}, "cast_pos").attr("to", std::int64_t{F32});
  m.node("Add", {"x", "posf"}, {"s"}, "add_x");
  if (with_unsupported_op) m.node("FooOp", {"s"}, {"y"}, "foo", "com.acme");
  else m.node("Relu", {"s"}, {"y"}, "relu");
  return m;
}

TEST(ReportUnsupported, AnInt64ValueReadAsDataIsListedWithTheOpTypes) {
  FrontendOptions report;
  report.values["report_unsupported"] = "1";
  expect_error([&] { (void)parse(int64_data_model(false), report); },
               {".onnx", "the model has 1 node(s) reading a tensor of an unsupported element type:",
                "node 'add_pos' (Add): unsupported element type INT64 for tensor 'pos'"});
  expect_error([&] { (void)parse(int64_data_model(true), report); },
               {".onnx", "1 unsupported ONNX operator type(s) in 1 node(s):", "FooOp (domain 'com.acme')  x1",
                "the model has 1 node(s) reading a tensor of an unsupported element type:", "node 'add_pos' (Add)"});
  // Without the option: the first problem alone, as before.
  expect_error([&] { (void)parse(int64_data_model(false)); }, {".onnx", "unsupported element type INT64 for tensor 'pos'"});
}

TEST(ReportUnsupported, ParseCommandExitsWithTwoNamingTheFile) {
  const auto model = unsupported_model().save_temp(test_file());
  const auto all = stream::test::run_stream("parse " + model.string() + " --report-unsupported");
  EXPECT_EQ(all.code, 2) << all.out;
  EXPECT_NE(all.out.find(model.string()), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("FooOp (domain 'com.acme')  x3, first at node 'foo_0'"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("BarOp (domain 'com.acme')  x1, first at node 'bar'"), std::string::npos) << all.out;
  const auto first = stream::test::run_stream("parse " + model.string());
  EXPECT_EQ(first.code, 2) << first.out;
  EXPECT_NE(first.out.find("'FooOp'"), std::string::npos) << first.out;
  EXPECT_EQ(first.out.find("BarOp"), std::string::npos) << first.out;
}

}  // namespace

TEST(Malformed, AShapeOfAnUntypedValueIsAnErrorNotACrash) {
  // Found by fuzz/onnx (fuzz/regressions/onnx/shape-of-untyped-value-*.onnx): libonnx's data
  // propagation for Shape dereferences its input's type, which no node gave to the output of an
  // unknown operator. The process died of SIGSEGV inside ONNX before.
  ModelBuilder m("g");
  m.input("x", F32, {1, 4, 2, 2}).output("y", F32);
  m.int_initializer("target", {1, -1, 2, 2});
  m.node("Tran`pose", {"x"}, {"t"}, "odd");
  m.node("Shape", {"t"}, {"s"}, "shape");
  m.node("Reshape", {"x", "s"}, {"y"}, "reshape");
  expect_error([&] { (void)parse(m); }, {"node 'odd'", "unsupported ONNX operator 'Tran`pose'"});
}

TEST(Malformed, AShapeOfAValueWhoseInferenceFailedIsAnErrorNotACrash) {
  // The other way a Shape input stays untyped (the fuzzed lraspp export): ONNX cannot infer the
  // producer, here an Add of [1, 4] and [1, 3], which do not broadcast.
  ModelBuilder m("g");
  m.input("a", F32, {1, 4}).input("b", F32, {1, 3}).output("y", F32);
  m.node("Add", {"a", "b"}, {"sum"}, "add");
  m.node("Shape", {"sum"}, {"s"}, "shape");
  m.node("Reshape", {"a", "s"}, {"y"}, "reshape");
  expect_error([&] { (void)parse(m); }, {"node 'add'"});
}
