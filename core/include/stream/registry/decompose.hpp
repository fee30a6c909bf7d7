// Applying registered decompositions to a whole workload (`--decompose`).
//
// Every computation node whose op type has a registered decomposer is replaced, in place and in
// insertion order, by the computation nodes of its decomposition; the decomposer's own InEdges and
// OutEdges are dropped because the sub-nodes read and write the original node's tensors. Nodes
// without a decomposer are kept as they are. The result is rebuilt, so its graph, order and unified
// dimensions are derived afresh.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/registry/registries.hpp"

namespace stream {

struct DecomposeResult {
  Workload workload;
  std::vector<std::string> decomposed;  ///< names of the replaced nodes, in insertion order
};

/// Which nodes to decompose (every node with a decomposer when empty).
using DecomposeFilter = std::function<bool(const Node&)>;

/// Throws stream::Error naming the node when a decomposer fails or returns no computation node.
[[nodiscard]] STREAM_API DecomposeResult decompose_workload(const Workload& workload, const Registries& registries,
                                                            const DecomposeFilter& which = {});

/// The reference's ExpandNormalizationStage (aie-and-defaults.md §4a): only Softmax and
/// LpNormalization normalization nodes, the ones it registers decomposers for (it leaves
/// LayerNormalization whole).
[[nodiscard]] STREAM_API bool is_reference_expanded_normalization(const Node& node);

}  // namespace stream
