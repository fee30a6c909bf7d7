// Writes every result file of a run under one directory:
//   summary.yaml, summary.json, timings.yaml, timings.json
//   group_<i>/mapping.yaml, core_cost_lut.yaml, slot_latency_breakdown.yaml,
//            optimization_metrics.yaml, steady_state_trace.json, schedule.svg,
//            memory_accesses.yaml (the last three only for a solved group),
//            layouts.yaml (solved, and only where layouts change figures: layouts_file.hpp)
//   group_<i>/model.mps (an infeasible group whose allocation carries its model, also with
//            --summary-only: pipeline::RunSpec::keep_infeasible_models)
//   report.html (html_report.hpp: the page a person opens)
// and, for a run of the mapping optimizer, its figures in summary.* and report.html
// (optimizer_report.hpp; its own files, optimize.yaml and the mappings, are the optimizer's).
// Every file except timings.* is a function of the inputs alone (byte-identical reruns): all
// wall-clock figures go to timings.*.
#pragma once

#include <filesystem>
#include <string>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"
#include "stream/report/optimizer_report.hpp"

namespace stream::report {

/// `inline_timings`: summary.* and optimization_metrics.yaml also carry their clock figures
/// (`stream run --inline-timings`); those files then differ from run to run. `group_files` false
/// (`stream run --summary-only`, for sweeps): summary.* and timings.* only, no group_<i>/
/// and no report.html (an infeasible model still is). `read_from`: where the files are read
/// once written (a staging directory's target; empty: `directory`), for the model paths
/// optimization_metrics.yaml names. `timings`: the run's clocks, for timings.*. `optimizer`: the
/// search that found the run's mapping (`--mapping optimize`), for summary.* and report.html.
STREAM_API void write_results(const pipeline::RunResult& result, const pipeline::RunTimings& timings,
                              const hardware::Accelerator& accelerator, const std::filesystem::path& directory,
                              const std::string& solver = "cbc", bool inline_timings = false, bool group_files = true,
                              const std::filesystem::path& read_from = {}, const OptimizerReport* optimizer = nullptr);

/// Where write_results puts group `group`'s infeasible model under `directory`: group_<i>/model.mps.
[[nodiscard]] STREAM_API std::filesystem::path infeasible_model_path(const std::filesystem::path& directory, int group);

}  // namespace stream::report
