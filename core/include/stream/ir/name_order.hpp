// The reference's re-sequencing of a workload on its automatic path (aie-and-defaults.md §4a).
//
// Before fusion groups and automatic mapping, the reference rebuilds the workload in
// networkx's lexicographical topological order keyed by node name: among the nodes whose distinct
// predecessors have all been placed, the smallest name by code point goes first (equal names:
// the earlier insertion). InEdges, OutEdges and FusionEdges take part like any node. Every later
// step follows that order (dataflow order, unified dims, the mapper's core assignment, transfer
// order), so it changes mappings: SwiGLU's compute order becomes Gemm_Left, Silu, Gemm_Right,
// Elt_Mul, Gemm_Down. A hand-written mapping keeps the model's order.
#pragma once
#include "stream/export.hpp"
#include "stream/ir/workload.hpp"

namespace stream {

/// The same nodes in the reference's name-keyed topological order.
[[nodiscard]] STREAM_API Workload in_name_order(const Workload& workload);

}  // namespace stream
