// Control flow resolved at load time. A workload is a static graph, so an If, Loop or Scan is
// replaced by the plain nodes it runs for the values known at load time (constants, shapes, and
// graph inputs given with --input NAME=VALUE):
//  - an If whose condition is known by the nodes of the branch it takes;
//  - a Loop whose trip count is known by that many copies of its body (unrolled), each iteration's
//    carried values feeding the next and its scan outputs stacked along a new axis 0;
//  - a Scan (opset 9 on) whose scan inputs have a static extent along their scan axis likewise,
//    each iteration reading its slice through a Gather.
// Subgraph nodes read outer-scope values by name; the values a subgraph defines get fresh names
// (a Loop iteration's: "<loop>/it<i>/<name>"). Expansion runs between shape-inference rounds
// (static_shapes.hpp), so a condition or trip count computed from shapes is known once the shapes
// are; a nested If or Loop becomes a top-level node and is expanded in a later round. What is left
// at the end is an error naming the node and how to decide it (reject_control_flow).
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "int_tensor_ops.hpp"
#include "shape_values.hpp"
#include "static_shapes.hpp"

namespace stream::onnx_frontend {

/// The value of a tensor known at load time, or nullptr.
using KnownValueLookup = std::function<const IntTensor*(const std::string& value)>;

/// No unrolling makes more nodes than this (iterations times body nodes): an error instead.
inline constexpr std::int64_t kMaxUnrolledNodes = 1 << 16;
/// Nor does the graph grow past this many nodes by expansions (nested loops multiply).
inline constexpr std::int64_t kMaxExpandedGraphNodes = 1 << 18;

/// Expands every If, Loop and Scan of `graph` that the known values decide; returns how many.
/// A Loop that cannot be unrolled whatever the values (its body computes its own stop condition,
/// too many nodes) and a batched Scan (opset 8) fail at once.
std::size_t expand_control_flow(onnx::GraphProto& graph, std::int64_t opset, const KnownValueLookup& known,
                                const StaticShapeLookup& static_shape, const ShapeFailure& fail);

/// Every value the subgraphs of `graph`'s nodes read (at any depth): an initializer only an untaken
/// branch reads is not part of the workload.
[[nodiscard]] std::vector<std::string> subgraph_reads(const onnx::GraphProto& graph);

/// Fails on the first If, Loop or Scan left in `graph`, naming it, why it could not be resolved and
/// the graph inputs --input could give to decide it.
void reject_control_flow(const onnx::GraphProto& graph, const KnownValueLookup& known, const ShapeFailure& fail);

}  // namespace stream::onnx_frontend
