// Static shapes for every tensor of a model whose graph inputs have static shapes. ONNX shape
// inference (with data propagation) runs first; then a pass of our own walks the nodes in graph
// order and fills what it left open: shape arithmetic is evaluated into Constants
// (shape_values.hpp), a node whose outputs are still unknown gets ONNX's inference function run on
// the shapes and constants known at that point (so a gap and everything after it resolve in the
// same pass), Einsum outputs get their extents from the equation (ONNX 1.12 infers only the rank),
// and element-wise activations without a schema in ONNX 1.12 keep their input's shape. ONNX's
// inference then runs again over the completed graph; rounds stop when a pass changes nothing, or
// after kMaxShapeRounds.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <string>

namespace stream::onnx_frontend {

/// Each round is linear in the graph size; a chain of gaps resolves within one round, so models
/// converge in two or three.
inline constexpr int kMaxShapeRounds = 64;

/// Completes the shapes of `model` in place; `fail` reports an ONNX shape inference failure.
void infer_static_shapes(onnx::ModelProto& model, std::int64_t default_opset,
                         const std::function<void(const std::string& message)>& fail);

}  // namespace stream::onnx_frontend
