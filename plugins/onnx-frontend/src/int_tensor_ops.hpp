// Integer tensor operations of the shape-arithmetic evaluator (shape_values.hpp): the ONNX
// semantics of Shape, Size, Gather, Concat, Unsqueeze, Squeeze, Slice, Reshape, Flatten, Expand,
// Transpose, Tile, Cast, Identity, the element-wise arithmetic, comparison and logic operators,
// Where, Range, ConstantOfShape and the Reduce operators, on small int64/int32/bool tensors.
// Each returns nothing when the node cannot be evaluated exactly: an unknown or malformed operand,
// a result over kMaxIntElements elements, integer overflow, division by zero.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stream::onnx_frontend {

/// The integer element types the load-time evaluation reads and writes.
inline constexpr int kI64 = onnx::TensorProto_DataType_INT64;
inline constexpr int kI32 = onnx::TensorProto_DataType_INT32;
inline constexpr int kBool = onnx::TensorProto_DataType_BOOL;

/// A small integer tensor, row-major; `elem` is TensorProto INT64, INT32 or BOOL.
struct IntTensor {
  int elem = onnx::TensorProto_DataType_INT64;
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> values;
};

/// Evaluates one default-domain node. `inputs[i]` is the value of input i (nullptr when the input
/// is absent); `input0_shape` is the static shape of input 0, which Shape and Size read instead of
/// its value.
[[nodiscard]] std::optional<IntTensor> evaluate_int_op(const onnx::NodeProto& node, std::int64_t opset,
                                                       const std::vector<const IntTensor*>& inputs,
                                                       const std::vector<std::int64_t>* input0_shape);

/// Whether evaluate_int_op knows the op type (Shape and Size read only input 0's shape).
[[nodiscard]] bool is_int_op(const std::string& op_type);

}  // namespace stream::onnx_frontend
