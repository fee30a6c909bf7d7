// LOMA, ZigZag's temporal mapping search: every distinct ordering of the loop prime factors
// (loop_factors.hpp) is allocated bottom-up to the memories (memory_allocator.hpp) and, when it
// fits, costed (evaluation.hpp). The best is the least latency_total2, then the least energy; the
// first such ordering in enumeration order wins a tie. A wall-clock budget may end the search early,
// keeping the best ordering found so far.
#pragma once

#include <cstdint>
#include <vector>

#include "stream/cost/evaluation.hpp"
#include "stream/cost/loop_factors.hpp"
#include "stream/cost/memory_allocator.hpp"

namespace stream::cost {

struct LomaResult {
  bool found = false;
  std::vector<TemporalLoop> ordering;
  Allocation allocation;
  MappingCost cost;
  std::uint64_t orderings_visited = 0;    ///< orderings tried before the search ended
  std::uint64_t orderings_evaluated = 0;  ///< orderings that fit and were costed
  bool search_cut = false;                ///< the time budget ended the search early
};

/// Searches the orderings of `lpfs`; `time_budget_s <= 0` means no budget.
[[nodiscard]] LomaResult loma_search(const std::vector<TemporalLoop>& lpfs, MemoryAllocator& allocator,
                                     Evaluator& evaluator, double time_budget_s);

}  // namespace stream::cost
