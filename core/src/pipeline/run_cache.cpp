#include "stream/pipeline/run_cache.hpp"

namespace stream::pipeline {

std::shared_ptr<schedule::RouteMemo> RunCache::routes(const hardware::Accelerator& acc) {
  auto& memo = routes_[schedule::topology_key(acc)];
  if (!memo) memo = std::make_shared<schedule::RouteMemo>();
  return memo;
}

void RunCache::trim() {
  if (routes_.size() > kMaxTopologies) routes_.clear();
  costs_.trim();
}

}  // namespace stream::pipeline
