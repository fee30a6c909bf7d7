// The extents of an ONNX ConvTranspose per spatial axis, from its attributes (strides, dilations,
// pads, auto_pad, output_padding, output_shape, kernel_shape) and the input and weight shapes.
//
// The transposed convolution scatters: input element i and tap f land on output s*i + d*f - p,
// p being the begin pad. `scatter` is the extent s*(in-1) + d*(k-1) + 1 of those positions
// before the pads crop them; the output is its window [p, p + out). A negative begin pad (an
// output_shape asking for more than the scatter reaches) shifts the window left: output elements
// no tap reaches hold the bias.
#pragma once

#include <cstdint>
#include <vector>

#include <stream/ir/tensor.hpp>
#include <stream/registry/onnx_parsers.hpp>

namespace stream::onnx_frontend {

struct ConvTransposeGeometry {
  std::vector<std::int64_t> kernel, strides, dilations;
  std::vector<std::int64_t> pad_begin;  ///< p: the output starts at scatter position p (may be negative)
  std::vector<std::int64_t> scatter;    ///< s*(in-1) + d*(k-1) + 1
  std::vector<std::int64_t> out;        ///< the ONNX output extent
};

/// Per the ONNX spec: out = s*(in-1) + output_padding + (k-1)*d + 1 - pad_begin - pad_end; with
/// output_shape the total padding follows from it and is split with floor division, the larger
/// half at the end for SAME_UPPER and at the begin otherwise, as ONNX's reference implementation
/// does; SAME_* pads as ONNX's shape inference does. Fails naming the node on a malformed or
/// inconsistent attribute.
[[nodiscard]] ConvTransposeGeometry conv_transpose_geometry(const OnnxNodeView& v, const Tensor& X, const Tensor& W);

}  // namespace stream::onnx_frontend
