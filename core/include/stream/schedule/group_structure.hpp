// The structure a fusion group must have for the steady-state schedule.
//
// add_transfers() turns a fusion group into transfers between its InEdges, compute nodes and
// OutEdges. It takes any DAG of those (a tensor may leave the group and be read inside it, a
// graph input may be a graph output), but a group must hold no FusionEdge (split_fusion_groups
// puts layout ops between groups) and at least one compute node (a group without one has nothing
// to schedule, and its latency of 0 would look like a result). check_group_structure() is that
// rule, so the pipeline and `stream validate` can apply it to every group before any is solved.
#pragma once

#include "stream/ir/workload.hpp"

namespace stream::schedule {

/// Throws stream::Error naming the node of the first violation of the rule above.
void check_group_structure(const Workload& group);

}  // namespace stream::schedule
