// Incremental construction of a block's workload graph.
//
// Blocks are written as a sequence of "add an input, add an operator, add an output" steps whose
// order is the node insertion order the spec prescribes (it drives the dataflow tie-break and the
// global dim numbering, so it is part of each block's contract). The builder owns that sequence,
// hands out tensors of the block's element type, and finally validates the whole graph by building
// the Workload. Every tensor of a block shares one dtype (spec §4).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <stream/ir/access.hpp>
#include <stream/ir/affine_map.hpp>
#include <stream/ir/node.hpp>
#include <stream/ir/workload.hpp>
#include <stream/registry/blocks.hpp>

namespace stream::blocks {

/// The map (d0..d{num_dims-1}) -> (d{dims[0]}, d{dims[1]}, ...).
[[nodiscard]] AffineMap dims_map(int num_dims, std::initializer_list<int> dims);
[[nodiscard]] AffineMap dims_map(int num_dims, const std::vector<int>& dims);

class GraphBuilder {
 public:
  explicit GraphBuilder(DType dtype) : dtype_(dtype) {}

  [[nodiscard]] DType dtype() const { return dtype_; }

  /// A new tensor of the block's dtype (not yet attached to any node).
  [[nodiscard]] TensorPtr tensor(const std::string& name, std::vector<std::int64_t> shape) const;
  /// A graph input: an InEdge named like its tensor.
  TensorPtr input(const std::string& name, std::vector<std::int64_t> shape);
  /// A computation node; dim_names (optional) label its loops for display.
  Node& compute(const std::string& name, const std::string& type, std::vector<TensorPtr> inputs,
                std::vector<TensorPtr> outputs, std::vector<AffineMap> maps,
                std::vector<std::string> dim_names = {});
  /// A normalization node (identity maps) over `input`, writing a new tensor `output_name`.
  TensorPtr normalization(const std::string& name, const std::string& type, const TensorPtr& input,
                          const std::string& output_name, std::vector<int> reduction_axes);
  /// A node built elsewhere (its tensors must be of the block's dtype).
  Node& add(Node node);
  /// A graph output: an OutEdge named `name` reading `tensor`.
  void output(const std::string& name, const TensorPtr& tensor);

  /// Builds (and so validates) the workload.
  [[nodiscard]] Workload build() &&;

 private:
  DType dtype_;
  std::vector<Node> nodes_;
};

/// Reads a strictly positive integer parameter; throws a stream::Error naming the block otherwise.
[[nodiscard]] std::int64_t positive_int(const BlockParams& params, const std::string& block, const std::string& param);
/// Ceiling division of positive integers.
[[nodiscard]] constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace stream::blocks
