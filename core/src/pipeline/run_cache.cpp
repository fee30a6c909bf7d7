#include "stream/pipeline/run_cache.hpp"

namespace stream::pipeline {

std::shared_ptr<schedule::RouteMemo> RouteMemos::of(const hardware::Accelerator& acc) {
  auto key = schedule::topology_key(acc);
  const std::lock_guard lock(mutex_);
  if (by_topology_.size() >= kMaxTopologies && !by_topology_.count(key)) by_topology_.clear();
  auto& memo = by_topology_[std::move(key)];
  if (!memo) memo = std::make_shared<schedule::RouteMemo>();
  return memo;
}

}  // namespace stream::pipeline
