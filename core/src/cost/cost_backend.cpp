#include "stream/cost/cost_backend.hpp"

namespace stream::cost {

const CostBackend* select_cost_backend(const std::vector<CostBackend>& backends, const hardware::Core& core) {
  // The built-in model is registered first with priority 0; `>=` lets a later registration win a
  // tie, as the reference's select_backend does.
  const CostBackend* best = nullptr;
  std::int64_t best_priority = 0;
  for (const auto& b : backends) {
    if (!b.claims || !b.claims(core)) continue;
    if (b.priority >= best_priority) {
      best = &b;
      best_priority = b.priority;
    }
  }
  return best;
}

}  // namespace stream::cost
