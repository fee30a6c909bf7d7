// What the steps of one run share: its spec and environment, the accelerator, the router over
// the run's route cache, the MILP solver and the allocation memo of
// structural deduplication. One per run() call, never shared between threads; the group steps
// (group_run.hpp) read everything but the router's memo and the allocation memo, which only
// save work (every figure is the same without them).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "stream/allocate/allocation_milp.hpp"
#include "stream/pipeline/run.hpp"
#include "stream/schedule/routing.hpp"
#include "stream/allocate/solver.hpp"

namespace stream::pipeline {

class RunContext {
 public:
  RunContext(const hardware::Accelerator& accelerator, const RunSpec& spec, const RunEnv& env);

  const hardware::Accelerator& acc;
  const RunSpec& spec;
  const RunEnv& env;
  /// The memory fallback applies (memory_fallback.hpp): automatic mappings only.
  const bool fallback;
  bool quiet = false;  ///< no progress lines (the per-layer check's runs)

  /// A progress line, unless quiet; throws Cancelled when the environment asks.
  void say(const std::string& line) const;
  void check_cancel() const;
  [[nodiscard]] RunCache& cache() { return *cache_; }
  [[nodiscard]] schedule::Router& router() { return router_; }
  [[nodiscard]] const allocate::MilpSolver& solver() const { return *solver_; }
  /// An earlier identical problem's optimal allocation (every figure of an allocation is
  /// index-based and its solve deterministic), or null.
  [[nodiscard]] const allocate::Allocation* solved(const std::string& key) const;
  void remember(const std::string& key, const allocate::Allocation& allocation);

 private:
  std::shared_ptr<const allocate::MilpSolver> solver_;
  // Paths, plans and (node, core) costs repeat across groups and fallback attempts, and across
  // runs sharing the caller's cache: each is computed once.
  std::shared_ptr<RunCache> cache_;
  schedule::Router router_;
  std::unordered_map<std::string, allocate::Allocation> solved_;
};

}  // namespace stream::pipeline
