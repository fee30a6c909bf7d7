// ONNX's own test models for the element types newer than libonnx 1.12 (FP8, INT4, FP4), int64
// data, empty tensors, the normalization statistics and a ScatterND reduction
// (data/onnx_conformance/README.md): each parses, and every graph output has the shape and
// element type of the test's expected output (test_data_set_0/output_<i>.pb). An empty output
// (extent 0) has no OutEdge, as it holds no data, and neither has the output of a fill (a
// ReduceSum over an empty axis: no work, a constant, as a Constant graph output).
#include "../onnx_test_util.hpp"

using namespace onnx_test;

namespace {

struct Output {
  std::string name;
  std::vector<std::int64_t> shape;  ///< empty: no OutEdge (an empty output, or a fill's)
  DType dtype = DType::f32;
};

struct Case {
  std::string test;
  std::vector<Output> outputs;
};

const std::vector<Case> kCases = {
    {"test_cast_FLOAT_to_FLOAT8E4M3FN", {{"output", {3, 5}, DType::f8e4m3fn}}},
    {"test_cast_FLOAT_to_INT4", {{"output", {5, 5}, DType::i4}}},
    {"test_cast_FLOAT_to_FLOAT4E2M1", {{"output", {3, 5}, DType::f4e2m1}}},
    {"test_castlike_FLOAT_to_FLOAT8E4M3FN", {{"output", {3, 5}, DType::f8e4m3fn}}},
    {"test_dequantizelinear_int4", {{"y", {5}, DType::f32}}},
    {"test_quantizelinear_e4m3fn", {{"y", {5}, DType::f8e4m3fn}}},
    {"test_pow_types_float32_int64", {{"z", {3}, DType::f32}}},
    {"test_reduce_sum_empty_set", {{"reduced", {}, DType::f32}}},  // [2, 1, 4] of zeros from [2, 0, 4]
    {"test_slice_start_out_of_bounds", {{"y", {}, DType::f32}}},
    {"test_layer_normalization_4d_axis0",
     {{"Y", {2, 3, 4, 5}, DType::f32}, {"Mean", {1, 1, 1, 1}, DType::f32}, {"InvStdDev", {1, 1, 1, 1}, DType::f32}}},
    {"test_batchnorm_example_training_mode",
     {{"y", {2, 3, 4, 5}, DType::f32}, {"output_mean", {3}, DType::f32}, {"output_var", {3}, DType::f32}}},
    {"test_scatternd_max", {{"y", {4, 4, 4}, DType::f32}}},
};

const Node* out_edge(const Workload& w, const std::string& name) {
  for (auto i : w.nodes_of_kind(NodeKind::OutEdge))
    if (w.node(i).name == name) return &w.node(i);
  return nullptr;
}

TEST(ConformanceDtypes, OutputShapesAndElementTypes) {
  for (const auto& c : kCases) {
    const auto path = std::string(STREAM_SOURCE_DIR) + "/tests/plugins/onnx-frontend/data/onnx_conformance/" + c.test + ".onnx";
    Workload w = parse_file(path);
    for (const auto& o : c.outputs) {
      const Node* edge = out_edge(w, o.name);
      if (o.shape.empty()) {
        EXPECT_EQ(edge, nullptr) << c.test << ": " << o.name;
        EXPECT_TRUE(computations(w).empty()) << c.test;
        continue;
      }
      ASSERT_NE(edge, nullptr) << c.test << ": " << o.name;
      EXPECT_EQ(edge->inputs[0]->shape, o.shape) << c.test << ": " << o.name;
      EXPECT_EQ(edge->inputs[0]->dtype, o.dtype) << c.test << ": " << o.name;
    }
  }
}

TEST(ConformanceDtypes, Int4AndFp8AreReadAtTheirWidths) {
  // test_dequantizelinear_int4: x is INT4 [5] (20 bits), read by the Cast the DequantizeLinear
  // output keeps; test_cast_FLOAT_to_INT4 writes 25 INT4 values (100 bits).
  const auto dir = std::string(STREAM_SOURCE_DIR) + "/tests/plugins/onnx-frontend/data/onnx_conformance/";
  Workload dq = parse_file(dir + "test_dequantizelinear_int4.onnx");
  ASSERT_EQ(computations(dq).size(), 1u);
  EXPECT_EQ(computations(dq)[0]->inputs[0]->dtype, DType::i4);
  EXPECT_EQ(computations(dq)[0]->inputs[0]->size_bits(), 20);
  Workload cast = parse_file(dir + "test_cast_FLOAT_to_INT4.onnx");
  EXPECT_EQ(out_edge(cast, "output")->inputs[0]->size_bits(), 100);
}

}  // namespace
