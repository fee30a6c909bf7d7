#include "constant_subgraphs.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace stream::onnx_frontend {
namespace {

bool never_folded(const ConstantCandidate& n) {
  static const std::set<std::string> ops{"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
                                         "Bernoulli", "Multinomial", "QuantizeLinear", "DequantizeLinear",
                                         "DynamicQuantizeLinear", "If", "Loop", "Scan"};
  return !n.domain->empty() || n.inputs->empty() || ops.count(*n.op_type) != 0;
}

bool is_layout(const std::string& op) {
  static const std::set<std::string> ops{"Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze"};
  return ops.count(op) != 0;
}

}  // namespace

std::vector<bool> fold_constant_nodes(const std::vector<ConstantCandidate>& nodes,
                                      const std::function<bool(const std::string&)>& stored_constant,
                                      const std::function<bool(const std::string&)>& is_graph_output) {
  std::vector<bool> folded(nodes.size(), false);
  std::unordered_set<std::string> computed;  // outputs of folded nodes: constants
  std::unordered_set<std::string> stored;    // weights as stored, and layout views of them
  auto constant = [&](const std::string& v) { return v.empty() || computed.count(v) || stored.count(v) || stored_constant(v); };
  auto as_stored = [&](const std::string& v) { return v.empty() || stored.count(v) || stored_constant(v); };
  std::vector<bool> layout_view(nodes.size(), false);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    if (never_folded(n) || !std::all_of(n.inputs->begin(), n.inputs->end(), constant)) continue;
    if (is_layout(*n.op_type) && std::all_of(n.inputs->begin(), n.inputs->end(), as_stored)) {
      layout_view[i] = true;
      for (const auto& o : *n.outputs) stored.insert(o);
      continue;
    }
    folded[i] = true;
    for (const auto& o : *n.outputs) computed.insert(o);
  }
  // A layout view of a weight that only folded nodes read is folded with them (walking backwards
  // sees every reader first).
  std::unordered_map<std::string, int> kept_readers;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (!folded[i])
      for (const auto& in : *nodes[i].inputs) ++kept_readers[in];
  for (std::size_t k = nodes.size(); k-- > 0;) {
    if (!layout_view[k]) continue;
    const auto& outs = *nodes[k].outputs;
    const bool read = std::any_of(outs.begin(), outs.end(),
                                  [&](const std::string& o) { return kept_readers[o] > 0 || is_graph_output(o); });
    if (read) continue;
    folded[k] = true;
    for (const auto& in : *nodes[k].inputs) --kept_readers[in];
  }
  return folded;
}

}  // namespace stream::onnx_frontend
