#include "stream/schedule/group_structure.hpp"

#include <algorithm>

#include "stream/error.hpp"

namespace stream::schedule {

void check_group_structure(const Workload& group) {
  const auto& nodes = group.nodes();
  if (std::none_of(nodes.begin(), nodes.end(), [](const Node& n) { return n.has_iteration_space(); }))
    throw Error("no computation node (only graph inputs, outputs and layout ops): nothing to schedule");
  for (const Node& n : nodes)
    if (n.kind == NodeKind::FusionEdge)
      throw Error("the layout op (FusionEdge) '" + n.name + "' is inside a fusion group; layout ops sit between groups",
                  Location{.node = n.name});
}

}  // namespace stream::schedule
