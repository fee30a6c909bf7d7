// Tensor operations of the load-time constant evaluator (shape_values.hpp): the ONNX semantics of
// Shape, Size, Gather, Concat, Unsqueeze, Squeeze, Slice, Reshape, Flatten, Expand, Transpose,
// Tile, Cast, Identity, ScatterND, the element-wise arithmetic, comparison, logic and (on floats)
// math operators, Where, Range, ConstantOfShape and the Reduce operators, on small int64/int32/
// bool and float/double tensors (the float ones let shape arithmetic that passes through floats,
// such as Cast(seq_len) -> Range or sqrt(head_dim), evaluate).
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

inline constexpr int kF32 = onnx::TensorProto_DataType_FLOAT;
inline constexpr int kF64 = onnx::TensorProto_DataType_DOUBLE;

/// FLOAT and DOUBLE tensors are evaluated too; their values are doubles stored bit for bit in
/// IntTensor::values, so that the data-movement operators copy them like integers.
[[nodiscard]] inline bool is_real(int elem) { return elem == kF32 || elem == kF64; }
[[nodiscard]] double real_of(std::int64_t bits);
[[nodiscard]] std::int64_t real_bits(double value);

/// A small tensor, row-major; `elem` is TensorProto INT64, INT32, BOOL, FLOAT or DOUBLE (is_real).
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

/// Evaluates a default-domain Split into its parts (one per output), or nothing when an operand
/// is unknown or the parts do not tile the axis. Split is the one multi-output node the evaluator
/// reads: torch exports repeat_interleave's Expand shape through a Split of a constant.
[[nodiscard]] std::optional<std::vector<IntTensor>> evaluate_split(const onnx::NodeProto& node, std::int64_t opset,
                                                                   const std::vector<const IntTensor*>& inputs);
/// Whether evaluate_int_op knows the op type (Shape and Size read only input 0's shape).
[[nodiscard]] bool is_int_op(const std::string& op_type);

}  // namespace stream::onnx_frontend
