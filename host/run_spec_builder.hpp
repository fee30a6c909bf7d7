// The one way from a request to a run: every front end (`stream run`, `stream validate`, `stream
// core-cost`, a sweep point, Python, MCP) describes what it wants as a RunRequest (the options of
// `stream run`, as text) and gets the pipeline's RunSpec (pipeline/run_spec.hpp) and the workload
// that spec schedules from here, so that they cannot drift apart: `stream validate` checks the
// fusion groups of the very workload `stream run` schedules. The run-or-search choice lives here
// too. Building the spec and preparing the workload use the registries (decompositions, cost
// backends): callers that run concurrently call them under their plugin lock, and the runs
// themselves (the pipeline) then use no plugin.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <stream/ir/workload.hpp>
#include <stream/optimize/optimizer.hpp>
#include <stream/pipeline/mapping_search.hpp>
#include <stream/pipeline/run.hpp>

#include "run_request.hpp"

namespace stream::host {

struct HostContext;

/// What a request runs: the spec, and `search` when its mapping is `search[?...]` (the mapping
/// search instead of one run; pipeline/mapping_search.hpp).
struct BuiltSpec {
  pipeline::RunSpec spec;
  std::optional<pipeline::SearchSpec> search;
  std::string search_text;  ///< the request's `search[?...]`, as written
  /// `optimize[?...]`: the mapping optimizer instead of one run (optimize/optimizer.hpp).
  std::optional<optimize::OptimizeSpec> optimize;
  std::string optimize_text;  ///< as written
  bool automatic_path_mapping = false;  ///< the mapping file says `workload: automatic-path`
};

/// The request's spec, costed by `cost_backends` (the registries' list); throws stream::Error for
/// a bad option (naming it) before any work. Reads the config file, resolves the mapping's path
/// (against the bundled inputs); uses no plugin.
[[nodiscard]] BuiltSpec build_run_spec(const RunRequest& request, const std::vector<CostBackend>& cost_backends);

/// The progress line describing a non-default constraint selection or nb_cols_to_use ("" for the
/// defaults).
[[nodiscard]] std::string constraint_line(const pipeline::RunSpec& spec);

/// Whether `built` schedules the automatic path's workload (workload_source.hpp,
/// automatic_path_workload): no mapping, no search, and the request does not leave the workload as
/// loaded (--no-decompose, or --decompose applied every decomposition already). Sets spec.order
/// to match (AsPrepared when it does).
[[nodiscard]] bool schedules_automatic_path(const RunRequest& request, BuiltSpec& built);

/// The workload `built` schedules: the automatic path's when schedules_automatic_path, else the
/// loaded one.
[[nodiscard]] Workload scheduled_workload(const Workload& loaded, const RunRequest& request, BuiltSpec& built, HostContext& ctx);

/// The run of `built`: the pipeline, the mapping search's best run (its outcome in `search`, when
/// given) or the mapping optimizer's (its outcome, best_run moved out, in `optimized`). A search
/// whose variants all failed is an error naming the first; an optimizer without a feasible
/// candidate one giving the automatic mapping's diagnosis.
[[nodiscard]] pipeline::RunResult run_or_search(const Workload& workload, const hardware::Accelerator& accelerator,
                                                const BuiltSpec& built, const pipeline::RunEnv& env,
                                                pipeline::SearchResult* search = nullptr,
                                                optimize::OptimizeResult* optimized = nullptr);

}  // namespace stream::host
