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
#include <stream/pipeline/run.hpp>
#include <stream/report/cost_fallbacks.hpp>
#include <stream/report/result_directory.hpp>

#include "workload_source.hpp"

namespace stream::host {

struct HostContext;

/// The options of `stream run`, with its defaults (the bundled 2-conv on the TPU-like quad core).
struct RunRequest {
  std::string hardware = "hardware/tpu_like_quad_core.yaml";
  WorkloadSource workload{.file = "workload/2conv_1_8_32_32_16_32_3.onnx"};
  std::string mapping;            ///< empty: automatic
  std::string intra_core_tiling;  ///< Node.D<n>=<tile>,...
  std::string fusion_cut_points;  ///< empty: automatic; "per-layer"; or N1,N2
  std::string out = "outputs";
  std::optional<std::string> experiment_id;
  int threads = 1;
  double time_limit = 0;
  bool no_memory_fallback = false;
  bool no_decompose = false;
  bool inline_timings = false;
  bool no_dedup = false;
  bool summary_only = false;
  std::string config;
  std::string constraint_selection;
  int nb_cols_to_use = 0;  ///< 0: the config's, else the default
  /// Data layouts (docs/layout.md): "fixed" keeps the model's and prices them; "choose" picks one
  /// per tensor and inserts conversions where cheaper (layout/choice.hpp).
  std::string layout = "fixed";
  /// The ideal-cycle estimates' latency (docs/cost-model.md, "Cost profiles"): "reference" keeps
  /// the reference's rule; "full" bounds it by their memory traffic as well.
  std::string cost_profile = "reference";
  /// Whose automatic path (stream/compat.hpp): "none" (this tool's) or "stream-1.13" (the
  /// reference's, where the two deliberately differ).
  std::string compat = "none";
  /// `--strict`: an ideal-cycle estimate for a node doing MAC work (report/cost_fallbacks.hpp,
  /// first_mac_estimate) is an error (bad input, exit 2) and no result is written.
  bool strict = false;
};

using Progress = std::function<void(const std::string&)>;

/// A run read and configured, ready for the pipeline; holds the staging result directory.
struct PreparedRun {
  std::filesystem::path out_dir;
  hardware::Accelerator accelerator;
  WorkloadSource source;  ///< files resolved against the bundled inputs
  Workload workload;
  std::size_t cast_tensors = 0;
  pipeline::RunOptions options;
  std::string mapping_search;  ///< `--mapping search[?...]`: run the mapping search instead
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
  report::CostFallbacks fallbacks;
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
