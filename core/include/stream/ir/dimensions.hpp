// Workload-wide unified dimensions (the reference's unique_dimensions, spec §1.7).
//
// Every node's loop dims get global slots: node after node in dataflow order, dims in node order.
// Two slots are the same axis when a producer and a consumer index a shared tensor axis with
// `d_a - d_b + c = 0` (coefficients exactly +1 and -1), or when two readers of the same graph
// input index one of its axes that way and not both as parallel bare dims. A union-find over
// those relations gives the classes; a class's representative is its highest slot, the
// representatives sorted ascending are z0, z1, ..., and a slot related with a constant offset
// has value z + offset (reported non-pure). This reproduces the reference on all its workloads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/export.hpp"

namespace stream {

class Workload;

struct STREAM_API UnifiedDimensions {
  /// Per node index (insertion order): the first global slot of its dims, or -1 for edges.
  std::vector<std::int64_t> first_slot;
  /// Per global slot: its unified dim z and the constant offset (value = z + offset).
  std::vector<int> slot_dim;
  std::vector<std::int64_t> slot_offset;
  /// Per global slot: the loop size of that node dim.
  std::vector<std::int64_t> slot_size;
  /// Per unified dim: the size of the first slot that maps to it.
  std::vector<std::int64_t> dim_size;
  /// Kept relations, printed like the reference ("d3 - d7", "d1 - d2 + 1").
  std::vector<std::string> relations;

  [[nodiscard]] std::size_t num_unique() const { return dim_size.size(); }
  /// The unified dims of node `node_index`, one per local dim.
  [[nodiscard]] std::vector<int> dims_of(std::size_t node_index, int num_dims) const;
};

[[nodiscard]] STREAM_API UnifiedDimensions compute_unified_dimensions(const Workload& workload);

}  // namespace stream
