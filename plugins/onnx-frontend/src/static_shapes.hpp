// Static shapes for every tensor of a model whose graph inputs have static shapes. ONNX shape
// inference (with data propagation) runs first; then a pass of our own walks the nodes in graph
// order and fills what it left open: shape arithmetic is evaluated into Constants
// (shape_values.hpp), a node whose outputs are still unknown gets ONNX's inference function run on
// the shapes and constants known at that point (so a gap and everything after it resolve in the
// same pass), Einsum outputs get their extents from the equation (ONNX 1.12 infers only the rank),
// and element-wise activations without a schema in ONNX 1.12 keep their input's shape. ONNX's
// inference then runs over the completed graph, and again our pass; rounds stop when a pass
// changes nothing, or after kMaxShapeRounds. At the end of each pass of ours, the If, Loop and Scan
// nodes that the values known by then decide are expanded into plain nodes (control_flow.hpp); one
// left after the last round is an error. Our pass runs first, so that a shape input of
// absurd length (a fuzzed Reshape target) is an error before ONNX's inference tries to build it.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <string>

namespace stream::onnx_frontend {

/// Each round is linear in the graph size; a chain of gaps resolves within one round, so models
/// converge in two or three.
inline constexpr int kMaxShapeRounds = 64;

/// No tensor has more axes: a longer tensor given as a shape (Reshape's, Expand's, ...) is an error
/// (ONNX's own inference would try to build that many axes).
inline constexpr std::int64_t kMaxRank = 64;

/// Reports a problem with the node and value it concerns (either may be empty); does not return.
using ShapeFailure = std::function<void(const std::string& message, const std::string& node, const std::string& value)>;

/// Completes the shapes of `model` in place.
void infer_static_shapes(onnx::ModelProto& model, std::int64_t default_opset, const ShapeFailure& fail);

}  // namespace stream::onnx_frontend
