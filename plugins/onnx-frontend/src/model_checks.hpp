// Structural checks of an ONNX graph before anything is inferred or parsed, so that a malformed
// model gets one clear stream::Error naming the file, the node and the problem instead of a
// confusing failure later: every value a node reads has a producer (a graph input, an initializer
// or one node), no value has two producers, the nodes form no cycle (an acyclic graph listed out of
// order is sorted, stably), attributes have the types their default-domain schema declares, and no
// declared extent is negative (nor zero on a graph input), and the strides, dilations and
// kernel_shape of a convolution or pooling node are at least 1 (ONNX shape inference divides by them).
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <string>

namespace stream::onnx_frontend {

/// `opsets` maps a domain ("" for the default one) to the imported version; `file` names errors.
void check_and_sort_graph(onnx::GraphProto& graph, const std::map<std::string, std::int64_t>& opsets,
                          const std::string& file);

}  // namespace stream::onnx_frontend
