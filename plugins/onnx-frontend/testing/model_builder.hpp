// Builds small ONNX models in memory for the fixture generator, the tests and the benchmark.
//
// Initializers carry only name, element type and shape (their data is cleared, as the seed asks);
// integer initializers that a parser must read (Reshape shapes, Slice starts) carry their values.
// Shapes of intermediate values are left to the frontend's shape inference unless declared.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace stream::onnx_testing {

using Shape = std::vector<std::int64_t>;
constexpr int F32 = onnx::TensorProto_DataType_FLOAT;
constexpr int F16 = onnx::TensorProto_DataType_FLOAT16;
constexpr int BF16 = onnx::TensorProto_DataType_BFLOAT16;
constexpr int I8 = onnx::TensorProto_DataType_INT8;
constexpr int U8 = onnx::TensorProto_DataType_UINT8;
constexpr int I16 = onnx::TensorProto_DataType_INT16;
constexpr int I32 = onnx::TensorProto_DataType_INT32;
constexpr int I64 = onnx::TensorProto_DataType_INT64;
constexpr int F64 = onnx::TensorProto_DataType_DOUBLE;
// Codes of ONNX 1.18+ that libonnx 1.12's enum does not list (the fields carrying them are int32).
constexpr int F8E4M3FN = 17;
constexpr int F8E5M2 = 19;
constexpr int U4 = 21;
constexpr int I4 = 22;
constexpr int F4E2M1 = 23;

class NodeRef {
 public:
  explicit NodeRef(onnx::NodeProto* n) : n_(n) {}
  NodeRef& attr(const std::string& name, std::int64_t v);
  NodeRef& attr(const std::string& name, int v) { return attr(name, static_cast<std::int64_t>(v)); }
  NodeRef& attr(const std::string& name, const std::vector<std::int64_t>& v);
  NodeRef& attr(const std::string& name, float v);
  NodeRef& attr(const std::string& name, const std::string& v);
  NodeRef& attr(const std::string& name, const char* v) { return attr(name, std::string(v)); }
  onnx::NodeProto& proto() { return *n_; }

 private:
  onnx::NodeProto* n_;
};

class ModelBuilder {
 public:
  explicit ModelBuilder(const std::string& graph_name, std::int64_t opset = 17);

  ModelBuilder& opset(const std::string& domain, std::int64_t version);
  ModelBuilder& input(const std::string& name, int elem, const Shape& shape);
  /// A graph output; an empty shape with `known_shape` false declares only the type.
  ModelBuilder& output(const std::string& name, int elem, const Shape& shape = {}, bool known_shape = false);
  ModelBuilder& value_info(const std::string& name, int elem, const Shape& shape);
  ModelBuilder& initializer(const std::string& name, int elem, const Shape& shape);
  ModelBuilder& int_initializer(const std::string& name, const std::vector<std::int64_t>& values, bool as_1d = true);
  NodeRef node(const std::string& op_type, const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
               const std::string& name = "", const std::string& domain = "");
  /// The com.example::Silu model-local function (x * Sigmoid(x)) the SwiGLU fixtures use.
  ModelBuilder& silu_function(const std::string& domain = "com.example");

  onnx::ModelProto& model() { return model_; }
  void save(const std::filesystem::path& path) const;
  /// Saves under the system temp directory and returns the path.
  std::filesystem::path save_temp(const std::string& file_name) const;

 private:
  onnx::ModelProto model_;
};

}  // namespace stream::onnx_testing
