// Subgraphs that depend on no graph input, found at load time. A node whose every input is a
// constant (an initializer, a Constant, or the output of another such node) computes the same
// tensor on every run: exporters leave such subgraphs in (rotary-embedding cos/sin tables computed
// from inv_freq, Swin's relative-position bias gathered from its table by an index computed from
// arange/meshgrid), and they are not part of the work a run does. The frontend removes them: their
// outputs become constants (read like weights, through an InEdge), and nothing computes them.
//
// Two exceptions keep a node: an operator whose result is not a function of its inputs (the
// Random* family, Bernoulli, Multinomial) and the quantization nodes the QDQ pass folds. A layout
// operator (Reshape, Transpose, Flatten, Squeeze, Unsqueeze) over weights as stored stays a
// FusionEdge whenever a kept node reads it: the weight keeps its name and the reader its access
// pattern, as before this pass.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace stream::onnx_frontend {

/// The part of a node the analysis reads.
struct ConstantCandidate {
  const std::string* op_type = nullptr;
  const std::string* domain = nullptr;  ///< empty for the default domain
  const std::vector<std::string>* inputs = nullptr;
  const std::vector<std::string>* outputs = nullptr;
};

/// For each node (in topological order), whether it is folded away. `stored_constant` tells the
/// initializers and Constant outputs; `is_graph_output` the values the graph returns.
[[nodiscard]] std::vector<bool> fold_constant_nodes(const std::vector<ConstantCandidate>& nodes,
                                                    const std::function<bool(const std::string&)>& stored_constant,
                                                    const std::function<bool(const std::string&)>& is_graph_output);

}  // namespace stream::onnx_frontend
