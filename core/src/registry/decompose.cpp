#include "stream/registry/decompose.hpp"

#include "stream/error.hpp"

namespace stream {

bool is_reference_expanded_normalization(const Node& node) {
  return node.kind == NodeKind::Normalization && (node.type == "Softmax" || node.type == "LpNormalization");
}

DecomposeResult decompose_workload(const Workload& workload, const Registries& registries, const DecomposeFilter& which) {
  DecomposeResult result;
  std::vector<Node> nodes;
  for (const auto& n : workload.nodes()) {
    const bool chosen = n.has_iteration_space() && (!which || which(n));
    const Decomposer* decomposer = chosen ? registries.decomposition(n.type) : nullptr;
    if (decomposer == nullptr) {
      nodes.push_back(n);
      continue;
    }
    Workload sub;
    try {
      sub = (*decomposer)(n);
    } catch (const Error& e) {
      throw e.within(Location{.node = n.name});
    }
    std::size_t added = 0;
    for (const auto& s : sub.nodes()) {
      if (!s.has_iteration_space()) continue;
      nodes.push_back(s);
      ++added;
    }
    if (added == 0) fail_node(n.name, "", "the " + n.type + " decomposition produced no computation node");
    result.decomposed.push_back(n.name);
  }
  result.workload = Workload(std::move(nodes));
  return result;
}

}  // namespace stream
