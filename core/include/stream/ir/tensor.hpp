// Tensors.
//
// A tensor is a name, an element type and a shape. Nodes share tensors by pointer: a workload has
// one Tensor object per value, and a node's operand is that object. Names are unique within a
// workload (the workload checks it), so a name also identifies a tensor in outputs. Its layout
// (ir/layout.hpp) says how its elements lie in memory: row-major unless a layout choice says
// otherwise; transfers count contiguous runs under it. Layout folding may split a tensor's axes;
// it then keeps the model's own shape beside the refined one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/dtype.hpp"
#include "stream/ir/layout.hpp"

namespace stream {

struct STREAM_API Tensor {
  std::string name;
  DType dtype = DType::f32;
  std::vector<std::int64_t> shape;
  Layout layout;  ///< empty order: row-major
  /// The shape the model gave a tensor whose axes layout folding split (ir/layout_folding.hpp);
  /// empty when `shape` is that shape. Same elements in the same order: only the axes differ.
  std::vector<std::int64_t> declared_shape;

  /// The shape as the model declared it (a graph input's or output's shape as the user wrote it).
  [[nodiscard]] const std::vector<std::int64_t>& model_shape() const { return declared_shape.empty() ? shape : declared_shape; }

  [[nodiscard]] std::size_t rank() const { return shape.size(); }
  /// Product of the shape; 1 for rank 0. Both throw stream::Error naming the tensor when the
  /// size does not fit in 64 bits (make_tensor rejects such a tensor up front).
  [[nodiscard]] std::int64_t size_elements() const;
  [[nodiscard]] std::int64_t size_bits() const;
};

using TensorPtr = std::shared_ptr<const Tensor>;

/// Creates a tensor; throws if a dimension is negative or its size in bits exceeds 64 bits.
[[nodiscard]] STREAM_API TensorPtr make_tensor(std::string name, DType dtype, std::vector<std::int64_t> shape);
/// The same with a layout; also throws (check_layout) when the layout does not fit the shape.
[[nodiscard]] STREAM_API TensorPtr make_tensor(std::string name, DType dtype, std::vector<std::int64_t> shape, Layout layout);

}  // namespace stream
