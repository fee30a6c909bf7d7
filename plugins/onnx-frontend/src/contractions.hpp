// The Conv nodes, built from their operand tensors rather than from the ONNX inputs, so that
// operators with the same loop nest and other input slots (QLinearConv, ConvInteger) share one
// derivation of the maps. Conv reads its attributes (strides, pads, dilations, group, auto_pad) from
// the node view. The MatMul family builds its node with stream/ir/matmul_layout.hpp's matmul_node.
#pragma once

#include <string>
#include <vector>

#include <stream/ir/node.hpp>
#include <stream/registry/onnx_parsers.hpp>

namespace stream::onnx_frontend {

/// A convolution node of the given type: dims (b, ox, oy, fx, fy, c, k[, g]) as conv_layout gives
/// them; a grouped one with the Reshape FusionEdges to and from its group-split views.
[[nodiscard]] std::vector<Node> conv_nodes(const OnnxNodeView& v, OnnxParseContext& ctx, const TensorPtr& X,
                                           const TensorPtr& W, const TensorPtr& Y, const std::string& type);

}  // namespace stream::onnx_frontend
