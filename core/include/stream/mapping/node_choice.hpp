// A compute node's place on the accelerator, chosen by a caller instead of the automatic mapping's
// steps 1 and 2 (auto_mapping.hpp): which cores run it and how it is split across them. The
// mapping optimizer (optimize/) searches these; the automatic mapping still tiles the group (its
// fusion tiling and capacity tiler) for whatever cores are chosen, so a choice is a complete
// mapping once the group around it is known.
//
// allowed_cores() and splittable_dims() say what a choice may hold: any non-empty subset of the
// compute cores whose operator types admit the node (the specialised and the generic ones; every
// compute core when there is neither, as step 1), split over the node's parallel dims that no node
// of the workload reduces nonlinearly or sequentially (step 2's protected dims, over the whole
// workload so that they hold in any fusion group), by factors multiplying to the core count, a
// factor not dividing its dim leaving the last core less (uneven).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/mapping.hpp"

namespace stream::mapping {

struct NodeChoice {
  std::vector<int> cores;         ///< ascending core ids, non-empty
  std::vector<DimSplit> splits;   ///< node-local dims, factors > 1 multiplying to cores.size()
  bool operator==(const NodeChoice&) const = default;
};

/// Node name -> its choice. A compute node without an entry gets the automatic mapping's.
using NodeChoices = std::map<std::string, NodeChoice>;

/// The compute cores a choice for `node` may use, ascending.
[[nodiscard]] STREAM_API std::vector<int> allowed_cores(const Node& node, const hardware::Accelerator& accelerator);

/// Per local dim of node `index`: whether a choice may split it across cores.
[[nodiscard]] STREAM_API std::vector<bool> splittable_dims(const Workload& workload, std::size_t index);

}  // namespace stream::mapping
