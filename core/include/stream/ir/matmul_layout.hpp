// The loop layout and affine maps of a (batched, broadcasting) matrix product, shared by every
// frontend (ONNX MatMul and its integer variants, ATen mm/bmm/matmul/addmm/linear and the products
// of attention).
//
// NumPy matmul semantics: A[..., m, k] x B[..., k, n] -> Y[..., m, n]; a 1-D A has no m and a 1-D B
// no n (the axis is dropped from Y). Loops: the output's batch axes b0..b(p-1), m, n, k (the
// contraction last, as the reference). A batch axis of an operand whose extent equals the output's
// (1 included) indexes with the batch loop, so that a unit batch axis stays one axis across nodes; a
// broadcast size-1 axis reads at 0. With OperandB::NK the second operand is stored [..., n, k] (a
// linear layer's weight, the key of an attention score).
#pragma once

#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/affine_map.hpp"
#include "stream/ir/node.hpp"
#include "stream/ir/tensor.hpp"

namespace stream {

struct MatmulLayout {
  enum class OperandB { KN, NK };  ///< B stored [..., k, n] (NumPy) or [..., n, k] (a weight)

  int dims = 0;
  std::size_t batch = 0;  ///< p, the output's batch axes (loops 0..p-1)
  int m = -1, n = -1, k = 0;  ///< m / n are -1 when A / B is 1-D
  std::vector<std::string> names;
  AffineMap a, b, y;
};

/// The maps of Y = A x B. Throws a stream::Error naming the offending tensor when an operand is
/// rank 0, the output rank is too small for the operands, the contraction extents differ or a
/// batch axis does not broadcast.
[[nodiscard]] STREAM_API MatmulLayout matmul_layout(const Tensor& a, const Tensor& b, const Tensor& y,
                                                    MatmulLayout::OperandB b_layout = MatmulLayout::OperandB::KN);

/// A Computation node of the given type over matmul_layout's maps and loop names, validated.
[[nodiscard]] STREAM_API Node matmul_node(std::string name, std::string type, const TensorPtr& a, const TensorPtr& b, const TensorPtr& y,
                                          MatmulLayout::OperandB b_layout = MatmulLayout::OperandB::KN);

}  // namespace stream
