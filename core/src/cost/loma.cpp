#include "stream/cost/loma.hpp"

#include <chrono>

namespace stream::cost {

namespace {

bool better(const MappingCost& cost, const MappingCost& best) {
  return cost.latency_total2 < best.latency_total2 ||
         (cost.latency_total2 == best.latency_total2 && cost.energy_total < best.energy_total);
}

}  // namespace

LomaResult loma_search(const std::vector<TemporalLoop>& lpfs, MemoryAllocator& allocator, Evaluator& evaluator,
                       double time_budget_s) {
  LomaResult result;
  MultisetPermutations perms(lpfs);
  Allocation alloc;
  MappingCost cost;
  const auto start = std::chrono::steady_clock::now();
  do {
    ++result.orderings_visited;
    // The clock is read every 16 orderings only, to keep it off the per-ordering path.
    if (time_budget_s > 0 && (result.orderings_visited & 15) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > time_budget_s) {
      result.search_cut = true;
      break;
    }
    const auto& ordering = perms.current();
    if (!allocator.allocate(ordering, alloc)) continue;
    evaluator.evaluate(ordering, alloc, cost, false);
    ++result.orderings_evaluated;
    if (!result.found || better(cost, result.cost)) {
      result.cost = cost;
      result.ordering = ordering;
      result.allocation = alloc;
      result.found = true;
    }
  } while (perms.next());
  return result;
}

}  // namespace stream::cost
