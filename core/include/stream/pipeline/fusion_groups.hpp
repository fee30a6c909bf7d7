// Fusion cut points and fusion groups (workload-spec §1.12).
//
// determine_fusion_cut_points(): the producers of data-dependent edges, the nodes with a
// data-dependent output (TopK, ArgMax, ScatterND), every MaxPool, and the Relu that is the only
// compute successor of an Add, in dataflow order, without a cut on the last compute node.
// per_layer_cut_points(): every compute node but the last.
// size_capped_cut_points(): the given cut points plus those that split every group of more than
// max_nodes compute nodes into equal consecutive chunks of at most max_nodes ([REC]; see
// kMaxFusedComputeNodes).
// split_fusion_groups(): walks the dataflow order; a FusionEdge starts a new group (and is in no
// group), a cut point ends its group. Graph inputs are duplicated into every group that reads
// them; tensors crossing groups get "<fe>_out"/"<fe>_in" (FusionEdge), "<n>_cut_out"/"<n>_cut_in"
// (cut point) or "<t>_bridge_out"/"<t>_bridge_in" edges; a tensor may leave its group and be read
// inside it too. Through a chain of layout ops, the producing group writes the tensor before the
// chain (the layout ops reinterpret that off-chip copy); a graph output behind layout ops is
// written that way under the output's name, and a graph input passed straight to a graph output
// is an InEdge of the output's group. Each group lists its InEdges first, in order of first read;
// groups without compute nodes are dropped. No FusionEdge and no cut point: the workload itself
// is the only group.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/mapping.hpp"

namespace stream::pipeline {

[[nodiscard]] STREAM_API std::vector<std::string> determine_fusion_cut_points(const Workload& workload);
[[nodiscard]] STREAM_API std::vector<std::string> per_layer_cut_points(const Workload& workload);
/// A mapping file's fusion groups (two fused groups or more, mapping.hpp): the last compute node
/// of each fused group but the last. Throws stream::Error (naming the file) when a compute node is
/// in no fused group by name or a fused group is not one run of consecutive compute nodes.
[[nodiscard]] STREAM_API std::vector<std::string> mapped_cut_points(const Workload& workload, const mapping::Mapping& mapping);
/// [REC] The largest fused group the automatic cut points leave whole. One group's allocation MILP
/// grows steeply with its size (CBC on a chain of 2,000 Relus: 0.5 s; 4,000: 23 s; 20,000: over
/// 5 min), while layers that far apart share no tiles worth fusing; equal chunks are also
/// structurally identical, so the run solves one of them and reuses it.
inline constexpr std::size_t kMaxFusedComputeNodes = 2048;
[[nodiscard]] STREAM_API std::vector<std::string> size_capped_cut_points(const Workload& workload,
                                                                         const std::vector<std::string>& cut_points,
                                                                         std::size_t max_nodes = kMaxFusedComputeNodes);
[[nodiscard]] STREAM_API std::vector<Workload> split_fusion_groups(const Workload& workload,
                                                                   const std::vector<std::string>& cut_points);

}  // namespace stream::pipeline
