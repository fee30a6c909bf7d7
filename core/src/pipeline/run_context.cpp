#include "run_context.hpp"

namespace stream::pipeline {

namespace {

// The caller's cache, trimmed before this run, or one of the run's own.
std::shared_ptr<RunCache> cache_for(const RunEnv& env) {
  if (!env.cache) return std::make_shared<RunCache>();
  env.cache->trim();
  return env.cache;
}

std::shared_ptr<const allocate::MilpSolver> solver_for(const RunEnv& env) {
  if (env.solver) return env.solver;
  return allocate::make_solver();
}

}  // namespace

RunContext::RunContext(const hardware::Accelerator& accelerator, const RunSpec& s, const RunEnv& e)
    : acc(accelerator),
      spec(s),
      env(e),
      fallback(!s.has_mapping() && !s.costs_only && s.memory_fallback && s.intra_core_tiling.empty()),
      solver_(solver_for(e)),
      cache_(cache_for(e)),
      router_(accelerator, {}, cache_->routes(accelerator)) {}

void RunContext::check_cancel() const {
  if (env.cancel != nullptr && env.cancel->load()) throw Cancelled{};
}

void RunContext::say(const std::string& line) const {
  check_cancel();
  if (env.progress && !quiet) env.progress(line);
}

const allocate::Allocation* RunContext::solved(const std::string& key) const {
  const auto it = solved_.find(key);
  return it == solved_.end() ? nullptr : &it->second;
}

void RunContext::remember(const std::string& key, const allocate::Allocation& allocation) {
  solved_[key] = allocation;
}

}  // namespace stream::pipeline
