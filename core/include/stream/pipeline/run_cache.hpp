// What runs can share: transfer routes and (tile, core) costs, across runs and accelerators.
//
// A Router's candidate paths and multicast plans depend on the interconnect's directed edges alone
// (schedule::RouteMemo, keyed by schedule::topology_key), not on bandwidths or cores; a cost entry
// depends on the per-core tile, the backend request and how the core performs (a CostCache keys
// cores by their performance class, Core::same_performance). So a sweep's points, whether they
// share a hardware file or are its variants with other memories, bandwidths or arrays, and the
// mapping search's variants, hand one RunCache to every run (RunEnv::cache): each path is
// searched and each distinct (tile, core) pair costed once, and every figure and result file is
// the same as with a fresh cache (tests/pipeline/run_test.cpp). The allocation MILP's reuse stays
// per run, so `reused_allocations` keeps its meaning. A RunCache is not thread-safe (one per
// thread, used with one set of cost backends and the default routing options), but the caches of
// several threads may share one RouteMemos, so that a sweep's workers search each path once.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/cost/cost_cache.hpp"
#include "stream/schedule/routing.hpp"

namespace stream::pipeline {

/// Route memos by topology (schedule::topology_key); thread-safe.
class STREAM_API RouteMemos {
 public:
  /// The routes found so far on accelerators of `acc`'s topology (a new memo for a new topology;
  /// past kMaxTopologies the memos start over, so that a long sweep keeps its memory flat).
  [[nodiscard]] std::shared_ptr<schedule::RouteMemo> of(const hardware::Accelerator& acc);
  static constexpr std::size_t kMaxTopologies = 64;

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<schedule::RouteMemo>> by_topology_;
};

class STREAM_API RunCache {
 public:
  explicit RunCache(std::shared_ptr<RouteMemos> routes = std::make_shared<RouteMemos>()) : routes_(std::move(routes)) {}
  [[nodiscard]] std::shared_ptr<schedule::RouteMemo> routes(const hardware::Accelerator& acc) { return routes_->of(acc); }
  [[nodiscard]] cost::CostCache& costs() { return costs_; }
  /// Called by run() before it starts: past its bounds the cost cache starts over, so that a long
  /// sweep keeps its memory flat (CostCache::trim).
  void trim() { costs_.trim(); }

 private:
  std::shared_ptr<RouteMemos> routes_;
  cost::CostCache costs_;
};

}  // namespace stream::pipeline
