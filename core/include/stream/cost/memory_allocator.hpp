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
#include "stream/cost/small_vec.hpp"
#include "stream/cost/spatial_mapping.hpp"
#include "stream/export.hpp"

namespace stream::cost {

/// Per layer operand, the boundaries of its memory levels in the ordering: level m holds
/// ordering[bounds[op][m] .. bounds[op][m+1]).
struct Allocation {
  SmallVec<SmallVec<int, 24>, 3> bounds;
};

class STREAM_API MemoryAllocator {
 public:
  /// `even`: EVEN mappings (a loop placed in a shared memory for one operand must be placed
  /// there for every operand sharing it; ZigZag HEAD's position-aware check). Default UNEVEN.
  MemoryAllocator(const Layer& layer, const CoreModel& core, const std::vector<int>& memop_of_op,
                  const std::vector<OperandSpatial>& spatial_frac, bool even = false);
  /// False when no ordering can fit: a necessary condition, independent of the ordering (at an
  /// operand's top memory its tile is everything; below, at least its spatial fan-in).
  [[nodiscard]] bool can_fit_some_ordering(const std::vector<TemporalLoop>& loops) const;
  /// False when the ordering does not fit.
  bool allocate(const std::vector<TemporalLoop>& ordering, Allocation& out);

 private:
  // The steps of allocate(), the cost model's inner loop: forced inline, as the loop bodies they were.
  [[gnu::always_inline]] inline void reset(Allocation& out);
  [[gnu::always_inline]] inline double precision_at(std::size_t op, const std::vector<TemporalLoop>& ordering) const;
  /// The tile sizes (bits) of every prefix of the operand's unallocated loops that fits the
  /// memory, and their "remaining iterations x tile bits"; false when none fits.
  [[gnu::always_inline]] inline bool list_prefixes(const CoreMemory& mem, std::size_t k, const std::vector<TemporalLoop>& ordering);
  [[gnu::always_inline]] inline bool even_combination(const CoreMemory& mem) const;
  [[gnu::always_inline]] inline bool choose_combination(const CoreMemory& mem);
  [[gnu::always_inline]] inline bool take_chosen(const CoreMemory& mem, const std::vector<TemporalLoop>& ordering, Allocation& out);

  const Layer& layer_;
  const CoreModel& core_;
  SmallVec<int, 3> memop_of_op_;
  SmallVec<int, kNumMemOps> op_of_memop_;
  const std::vector<OperandSpatial>& spatial_;
  bool even_ = false;
  // Workspace, reused between orderings.
  SmallVec<SmallVec<double, 64>, 3> alloc_prod_;
  SmallVec<int, 3> pos_, mem_level_;
  SmallVec<double, 64> prod_;
  SmallVec<SmallVec<double, 128>, kNumMemOps> sizes_, acc_;
  SmallVec<int, kNumMemOps> offset_, idx_, best_idx_;
};

}  // namespace stream::cost
