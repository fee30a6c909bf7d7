// One `stream run` as a function: what to run (a RunRequest, the command's options), prepared in
// the host (files read, plugins resolved, options built) and then executed (the pipeline, the
// result files written whole or not at all, report/result_directory.hpp). The CLI prints the
// outcome; the Python module returns it. The two steps are separate because only the first uses
// the plugin host, which is not safe to use from several threads at once: a caller that runs
// experiments concurrently serialises prepare_run() and lets execute_run() overlap.
#pragma once

#include <filesystem>
#include <future>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <stream/hardware/accelerator.hpp>
#include <stream/optimize/optimizer.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/report/cost_fallbacks.hpp>
#include <stream/report/result_directory.hpp>

#include "run_request.hpp"
#include "run_spec_builder.hpp"
#include "workload_source.hpp"

namespace stream::host {

/// A run read and configured, ready for the pipeline; holds the staging result directory.
struct PreparedRun {
  std::filesystem::path out_dir;
  hardware::Accelerator accelerator;
  WorkloadSource source;  ///< files resolved against the bundled inputs
  Workload workload;
  BuiltSpec built;       ///< what the pipeline computes (build_run_spec)
  pipeline::RunEnv env;  ///< its progress sink and where infeasible models go
  bool inline_timings = false, group_files = true;
  bool strict = false;  ///< RunRequest::strict
  std::unique_ptr<report::StagedResultDirectory> results;
  /// The MILP solver's libraries, loading on another thread while the pipeline tiles and costs
  /// (MilpSolver::prepare); the first solve waits for them if it comes first.
  std::future<void> solver_ready;
};

struct RunOutcome {
  std::filesystem::path out_dir;
  hardware::Accelerator accelerator;
  pipeline::RunResult result;
  pipeline::RunTimings timings;
  report::CostFallbacks fallbacks;
  /// `--mapping optimize`: the optimizer's outcome (its best_run is `result`, moved out).
  std::optional<optimize::OptimizeResult> optimized;
};

/// Where the run's results go: OUT/ID, the given experiment id or one built from the inputs
/// (throws stream::Error for an id that is not one path component). Reads no file.
[[nodiscard]] std::filesystem::path result_directory(const RunRequest& request);
/// Reads the inputs and builds the options; throws stream::Error for bad input (before any work).
[[nodiscard]] PreparedRun prepare_run(const RunRequest& request, HostContext& ctx, const Progress& progress);
/// Runs the pipeline and writes the result files into out_dir; uses no plugin host. Under
/// --strict, a MAC node's estimate throws stream::Error naming it before anything is written.
[[nodiscard]] RunOutcome execute_run(PreparedRun run);

}  // namespace stream::host
