// The input of the per-core cost model: one node's per-core tile.
//
// A tile is a node's iteration space after the inter-core split has been divided out, with its
// tensors (the output first, then the inputs in ONNX order) and, per tensor axis, the affine index
// expression over the tile's dimensions. This is exactly what Stream hands its ZigZag estimator
// and what the oracle cases record as `layer`; the cost model turns it into a ZigZag-like layer
// (see layer.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stream::cost {

/// One affine index: const + sum(coef * D[dim]) over `terms`, kept in expression order.
struct AxisExpr {
  struct Term {
    int dim = 0;
    std::int64_t coef = 1;
  };
  std::vector<Term> terms;
  std::int64_t constant = 0;
  /// A windowed axis's size as the caller defines it (the pipeline: the widest accessor of the
  /// tensor in the group, aie-and-defaults §4b); 0: the window's own span over the tile's dims.
  std::int64_t window_size = 0;
};

struct TileOperand {
  std::string role;               ///< "O" for the output, "A", "B", ... for the inputs
  int precision_bits = 0;         ///< the tensor's bit width
  std::vector<std::int64_t> tensor_shape;  ///< logical extent per axis (clips windowed axes)
  std::vector<AxisExpr> axes;     ///< one per tensor axis
};

struct TileDim {
  std::string name;  ///< informative only
  std::int64_t size = 1;
};

struct Tile {
  std::string name;     ///< node name, for messages
  std::string op_type;  ///< ONNX operator type as the node stores it ("Conv", "Silu", ...)
  std::vector<TileDim> dims;
  std::vector<TileOperand> operands;  ///< output first
};

}  // namespace stream::cost
