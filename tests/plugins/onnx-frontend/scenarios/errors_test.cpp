// Bad input gives a stream::Error naming the file and, where it applies, the node and tensor;
// never a crash. External weight data is never needed.
#include <fstream>

#include "../onnx_test_util.hpp"
#include "scratch_dir.hpp"

using namespace onnx_test;

namespace {

std::filesystem::path write_bytes(const std::string& name, const std::string& bytes) {
  static const stream::test::ScratchDir scratch("stream-onnx-errors-");
  auto path = scratch.path() / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(Errors, MissingFile) {
  expect_error([] { (void)parse_file("/nonexistent/model.onnx"); }, {"/nonexistent/model.onnx", "no such file"});
}

TEST(Errors, NotProtobufEmptyAndTruncatedFiles) {
  const auto text = write_bytes("text.onnx", "this is not a protobuf model at all\n");
  expect_error([&] { (void)parse_file(text.string()); }, {text.string(), "not a readable ONNX model"});
  const auto empty = write_bytes("empty.onnx", "");
  expect_error([&] { (void)parse_file(empty.string()); }, {empty.string(), "not a readable ONNX model"});
  std::ifstream in(std::string(STREAM_INPUTS_DIR) + "/workload/swiglu_1_16_32.onnx", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 100u);
  const auto truncated = write_bytes("truncated.onnx", bytes.substr(0, bytes.size() / 2));
  expect_error([&] { (void)parse_file(truncated.string()); }, {truncated.string(), "not a readable ONNX model"});
}

TEST(Errors, ArbitraryBytesNeverCrash) {
  std::uint32_t seed = 12345;
  for (int round = 0; round < 50; ++round) {
    std::string bytes;
    for (int i = 0; i < 64 + round * 7; ++i) {
      seed = seed * 1664525u + 1013904223u;
      bytes += static_cast<char>(seed >> 24);
    }
    const auto path = write_bytes("random.onnx", bytes);
    EXPECT_THROW((void)parse_file(path.string()), Error);
  }
}

TEST(Errors, MutatedModelsNeverCrash) {
  // Valid fixtures with bytes overwritten: each either parses or gives a stream::Error.
  std::uint32_t seed = 777;
  int parsed = 0, rejected = 0;
  for (const char* f : {"2conv_1_8_32_32_16_32_3.onnx", "attention_pytorch.onnx", "qdq_conv_int8.onnx", "cnn_concat_pool.onnx"}) {
    std::ifstream in(std::string(STREAM_INPUTS_DIR) + "/workload/" + f, std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (int round = 0; round < 60; ++round) {
      auto bytes = original;
      for (int k = 0; k < 1 + round % 3; ++k) {
        seed = seed * 1664525u + 1013904223u;
        const auto pos = (seed >> 8) % bytes.size();
        seed = seed * 1664525u + 1013904223u;
        bytes[pos] = static_cast<char>(seed >> 24);
      }
      const auto path = write_bytes("mutated.onnx", bytes);
      try {
        (void)parse_file(path.string());
        ++parsed;
      } catch (const Error&) {
        ++rejected;
      }
    }
  }
  EXPECT_EQ(parsed + rejected, 240);
}

TEST(Errors, UnknownShapeNamesNodeAndTensor) {
  ModelBuilder m("g");
  auto* in = m.model().mutable_graph()->add_input();
  in->set_name("x");
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(F32);
  tt->mutable_shape()->add_dim()->set_dim_param("batch");
  tt->mutable_shape()->add_dim()->set_dim_value(8);
  m.output("y", F32);
  m.node("Relu", {"x"}, {"y"}, "relu");
  expect_error([&] { (void)parse(m); }, {".onnx", "relu", "'x'", "unknown", "batch"});
  // Given the symbolic size, it parses.
  FrontendOptions opts;
  opts.values["batch"] = "4";
  auto w = parse(m, opts);
  EXPECT_EQ(sizes(node(w, "relu")), (std::vector<std::int64_t>{4, 8}));
}

TEST(Errors, UnsupportedElementTypeNamesTheTensor) {
  ModelBuilder m("g");
  // Complex numbers are not modelled (f64 and the 8- and 4-bit types are: low_precision_test.cpp).
  constexpr int kComplex64 = onnx::TensorProto_DataType_COMPLEX64;
  m.input("x", kComplex64, {2, 3}).output("y", kComplex64);
  m.node("Relu", {"x"}, {"y"}, "relu_c64");
  expect_error([&] { (void)parse(m); }, {".onnx", "relu_c64", "COMPLEX64", "'x'", "f64, u16, u32, u64, f8e4m3fn"});
}

TEST(Errors, Int64IndexTensorsAreMetadataNotErrors) {
  ModelBuilder m("g");
  m.input("table", F32, {100, 16}).input("ids", I64, {4}).output("emb", F32);
  m.node("Shape", {"ids"}, {"ids_shape"}, "shape_of_ids");
  m.node("Gather", {"table", "ids"}, {"emb"}, "embed");
  auto w = parse(m);
  EXPECT_EQ(w.computation_nodes().size(), 1u);
  EXPECT_THROW((void)w.index_of("ids"), Error);  // no InEdge for an int64 input
}

TEST(Errors, UnknownOperatorSaysHowToRegisterAParser) {
  ModelBuilder m("g");
  m.opset("com.acme", 1);
  m.input("x", F32, {2, 3}).output("y", F32, {2, 3});
  m.node("FancyOp", {"x"}, {"y"}, "fancy", "com.acme");
  expect_error([&] { (void)parse(m); },
               {".onnx", "'FancyOp'", "com.acme", "'fancy'", "add_onnx_parser", "provides.onnx_ops"});
}

TEST(Errors, ParserErrorsCarryTheFileAndNode) {
  ModelBuilder m("g");
  m.input("x", F32, {1, 4, 8, 8}).output("y", F32);
  m.node("MaxPool", {"x"}, {"y"}, "pool_without_kernel").attr("kernel_shape", Shape{2, 2});
  m.model().mutable_graph()->mutable_node(0)->clear_attribute();
  expect_error([&] { (void)parse(m); }, {".onnx", "pool_without_kernel"});
}

TEST(Errors, AnInputNobodyProducesIsNamed) {
  ModelBuilder m("g");
  m.input("x", F32, {2, 3}).output("y", F32, {2, 3});
  m.node("Add", {"x", "ghost"}, {"y"}, "add_ghost");
  expect_error([&] { (void)parse(m); }, {".onnx", "add_ghost", "ghost"});
}

TEST(Errors, BadTransposePermutationIsAnErrorNotACrash) {
  ModelBuilder m("g");
  m.input("x", F32, {2, 3}).output("y", F32, {3, 2});
  m.node("Transpose", {"x"}, {"y"}, "t").attr("perm", Shape{1, 1});
  EXPECT_THROW((void)parse(m), Error);
}

TEST(Robustness, DuplicateNodeNamesAreMadeUnique) {
  ModelBuilder m("g");
  m.input("x", F32, {2, 3}).output("y", F32);
  m.node("Relu", {"x"}, {"a"}, "n");
  m.node("Sigmoid", {"a"}, {"y"}, "n");
  auto w = parse(m);
  EXPECT_EQ(node(w, "n").type, "Relu");
  EXPECT_EQ(node(w, "n_1").type, "Sigmoid");
}

TEST(ExternalData, WeightsInMissingExternalFilesAreNotNeeded) {
  ModelBuilder m("g");
  m.input("x", F32, {1, 8}).output("y", F32);
  m.initializer("w", F32, {8, 4});
  auto* w = m.model().mutable_graph()->mutable_initializer(0);
  w->set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
  auto* loc = w->add_external_data();
  loc->set_key("location");
  loc->set_value("weights_that_do_not_exist.bin");
  m.node("MatMul", {"x", "w"}, {"y"}, "mm");
  auto wl = parse(m);
  EXPECT_EQ(sizes(node(wl, "mm")), (std::vector<std::int64_t>{1, 4, 8}));
}

}  // namespace
