// Folding layout operators into the nodes that read them (the seed's "Layout operators").
//
// A frontend parses Reshape/Flatten/Squeeze/Unsqueeze/Transpose (or their torch equivalents) to
// FusionEdges; fold_layout_ops then removes every one it can: each reader reads the layout op's
// input through the composed map. A transpose permutes the reader's indices. A reshape that
// splits an axis refines that axis into the new axes in every node and tensor that has it (loops
// indexing it alone are split in place, outer to inner), so each node indexes each axis with one
// loop; a reshape that merges axes splits the reader's loop over the merged axis into one loop per
// original axis. A layout op is folded all-or-nothing: one that regroups elements across axes
// ([6,4] as [4,6]), whose merged axis a reader walks other than with one bare loop, or whose
// refinement meets a windowed or offset index stays a FusionEdge. So does one whose refinement
// would spread past LayoutFoldingOptions' bounds (nodes touched, refinements, loops per node):
// a MaxViT-like window attention's refinements went on without end before. Layout ops are
// processed from the last to the first, so chains (reshape -> transpose -> reshape) compose.
// (Reductions folded into contractions: reduction_folding.hpp.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/node.hpp"

namespace stream {

struct LayoutFoldingOptions {
  /// FusionEdge types that reshape by shape (the op's own shape argument is not needed).
  std::set<std::string> reshape_types{"Reshape", "Flatten", "Squeeze", "Unsqueeze"};
  /// FusionEdge types that permute axes; the permutation comes from `perms` (default: reversed).
  std::set<std::string> transpose_types{"Transpose"};
  /// Permutation of each transpose FusionEdge, by node name: output axis k is input axis perm[k].
  std::map<std::string, std::vector<std::int64_t>> perms;
  /// What one layout op's fold may touch (docs/plugin-author-guide.md, "FusionEdges and layout
  /// folding"): past a bound the op stays a FusionEdge, so a fold costs at most this much
  /// whatever the graph's size and the pass stays linear in the graph.
  std::size_t max_touched_nodes = 256;  ///< distinct nodes one fold may change
  std::size_t max_refinements = 1024;   ///< axis refinements one fold may apply
  int max_loops = 64;                   ///< loops a node may reach through refinements
};

struct LayoutFoldingReport {
  std::vector<std::string> folded;  ///< names of the layout ops folded away
  std::vector<std::string> kept;    ///< names of the layout ops kept as FusionEdges
  /// The layout ops kept because their fold would have spread past a bound (also in `kept`).
  std::vector<std::string> bounded;
  std::size_t refinements = 0;    ///< axis refinements applied, over every fold (kept ones too)
  std::size_t touched_nodes = 0;  ///< node changes, over every fold (each node once per fold)
};

/// Returns the nodes with every foldable layout FusionEdge removed (see above). The order of the
/// remaining nodes is kept. Tensors refined by a split keep their name and element type.
[[nodiscard]] STREAM_API std::vector<Node> fold_layout_ops(std::vector<Node> nodes, const LayoutFoldingOptions& options = {},
                                                LayoutFoldingReport* report = nullptr);

}  // namespace stream
