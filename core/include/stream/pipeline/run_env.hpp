// Where a run happens, as opposed to what it computes (run_spec.hpp): caches shared with other
// runs, the MILP solver, a progress sink, a cancellation flag and where the clocks go. Nothing
// here changes a figure of the result: two runs of one RunSpec with different environments give
// byte-identical results (tests/pipeline/run_test.cpp shares a cache and compares).
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "stream/allocate/solver.hpp"
#include "stream/pipeline/run_cache.hpp"
#include "stream/pipeline/run_timings.hpp"

namespace stream::pipeline {

/// Thrown at the next step boundary of a run whose RunEnv::cancel became true. Not a
/// stream::Error: no step of the run takes it for a failed group or variant.
struct Cancelled : std::exception {
  [[nodiscard]] const char* what() const noexcept override { return "the run was cancelled"; }
};

struct RunEnv {
  /// Routes and costs shared with other runs (run_cache.hpp); null: the run keeps its own.
  std::shared_ptr<RunCache> cache;
  /// The MILP solver (stateless, shareable across threads); null: CBC (allocate::make_solver).
  std::shared_ptr<const allocate::MilpSolver> solver;
  std::function<void(const std::string&)> progress;  ///< one line per step, may be empty
  /// Checked at every step boundary: when true the run throws Cancelled. Null: never cancelled.
  const std::atomic<bool>* cancel = nullptr;
  /// Where the run's clocks go (run_timings.hpp); null: not kept.
  RunTimings* timings = nullptr;
};

}  // namespace stream::pipeline
