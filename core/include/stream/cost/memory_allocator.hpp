// LOMA's bottom-up memory allocation of one loop ordering.
//
// Memories are visited in file order (a valid bottom-up order). At each memory, every operand it
// holds may take a prefix of its still-unallocated loops: the prefixes whose tile (tensor size of
// everything allocated so far, in bits) fits the memory; the top memory of an operand takes all of
// them. Among the combinations whose summed size fits the shared capacity, the one with the least
// "remaining iterations x tile bits" is chosen, the later combination (last operand fastest) on a
// tie. An ordering that cannot be placed is rejected (ZigZag's MemoryTooSmall /
// MemoryHierarchyTooSmall exceptions, which LOMA skips).
#pragma once

#include <vector>

#include "stream/cost/core_model.hpp"
#include "stream/cost/layer.hpp"
#include "stream/cost/loop_factors.hpp"
#include "stream/cost/spatial_mapping.hpp"

namespace stream::cost {

/// Per layer operand, the boundaries of its memory levels in the ordering: level m holds
/// ordering[bounds[op][m] .. bounds[op][m+1]).
struct Allocation {
  std::vector<std::vector<int>> bounds;
};

class MemoryAllocator {
 public:
  MemoryAllocator(const Layer& layer, const CoreModel& core, const std::vector<int>& memop_of_op,
                  const std::vector<OperandSpatial>& spatial_frac);
  /// False when the ordering does not fit.
  bool allocate(const std::vector<TemporalLoop>& ordering, Allocation& out);

 private:
  const Layer& layer_;
  const CoreModel& core_;
  std::vector<int> memop_of_op_;
  std::vector<int> op_of_memop_;
  const std::vector<OperandSpatial>& spatial_;
  // Workspace, reused between orderings.
  std::vector<std::vector<double>> alloc_prod_;
  std::vector<int> pos_, mem_level_;
  std::vector<double> prod_;
  std::vector<std::vector<double>> sizes_, acc_;
  std::vector<int> offset_, idx_, best_idx_;
};

}  // namespace stream::cost
