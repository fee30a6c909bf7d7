// Operator decompositions: a node of a given op type -> a workload of its affine sub-operators.
//
// A decomposer must give the sub-nodes the fused-kernel tag "<OpType>:<node name>" of their
// origin, read the original node's input tensors and write its output tensors, so the result
// can replace the node in place.
#pragma once

#include <functional>

#include "stream/ir/workload.hpp"

namespace stream {

using Decomposer = std::function<Workload(const Node& node)>;

}  // namespace stream
