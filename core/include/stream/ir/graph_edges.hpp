// A workload's boundary, shared by the ONNX and torch.export frontends: a frontend converts its
// graph's operations into a body of nodes that name the tensors they read and write, and
// add_graph_edges wraps that body in InEdges and OutEdges. Before the body come the InEdges: one for
// each listed input in the caller's order (graph inputs, weights, parameters; each value once; a
// listed input may be conditional on the body not producing it or on the body reading it), then one
// for each other value the body reads without producing it, in order of first read, if the caller
// admits it (ONNX constants; a caller rejects such a read by throwing). After the body come the
// OutEdges, one for each listed output that the body produces or that has an InEdge (a graph input
// passed through); two outputs naming the same value get an OutEdge each unless the caller asks for
// one per value. An InEdge is named after its value, an OutEdge after the graph's output name, with
// "_in" / "_out" appended until no other node has the name.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/node.hpp"

namespace stream {

/// A value that may enter the graph through an InEdge.
struct GraphEdgeInput {
  std::string value;
  bool unless_produced = false;  ///< no InEdge when a body node produces the value
  bool unless_unread = false;    ///< no InEdge when no body node reads the value
};

/// A graph output: the OutEdge takes its name from `edge_name` and carries `value` (the name the
/// body knows the output by, after alias resolution).
struct GraphEdgeOutput {
  std::string edge_name;
  std::string value;
};

struct GraphEdgeOptions {
  std::vector<GraphEdgeInput> inputs;
  std::vector<GraphEdgeOutput> outputs;
  /// When two outputs name the same value: one OutEdge (true) or one per output (false).
  bool one_out_edge_per_value = false;
  /// The tensor of a value that gets an edge (the body's tensor of that name, so they are shared).
  std::function<TensorPtr(const std::string& value)> tensor;
  /// Called for a value `reader` reads that neither a body node produces nor has an InEdge yet:
  /// returning admits it (it gets an InEdge), throwing rejects it. Empty: every such read is an error.
  std::function<void(const Node& reader, const TensorPtr& value)> admit_unbound_read;
};

/// Returns InEdges, then the body (its order kept), then OutEdges (see above).
[[nodiscard]] STREAM_API std::vector<Node> add_graph_edges(std::vector<Node> body, const GraphEdgeOptions& options);

}  // namespace stream
