#include "run_experiment.hpp"

#include <sstream>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/group_mapping.hpp>
#include <stream/pipeline/run_config.hpp>
#include <stream/report/write.hpp>

#include "command.hpp"
#include "inputs.hpp"
#include "plugin_host.hpp"

namespace stream::host {
namespace {

std::string stem(const std::string& p) { return std::filesystem::path(p).stem().string(); }

// The results' directory name: the given id (one path component), or one built from what makes
// the run differ (hardware, workload with its block parameters and sizes, cast).
std::string experiment_id(const RunRequest& o, const WorkloadSource& source) {
  if (o.experiment_id) {
    report::check_experiment_id(*o.experiment_id);
    return *o.experiment_id;
  }
  return report::as_path_component(stem(o.hardware) + "-" + source.label() +
                                   (source.cast.empty() ? "" : "-" + source.cast) + "-constraint_optimization");
}

void set_cut_points(const std::string& spec, pipeline::RunOptions& ro) {
  if (spec == "per-layer") {
    ro.cut_mode = pipeline::CutMode::PerLayer;
  } else if (!spec.empty()) {
    ro.cut_mode = pipeline::CutMode::Explicit;
    std::stringstream ss(spec);
    for (std::string item; std::getline(ss, item, ',');)
      if (!item.empty()) ro.cut_points.push_back(item);
  }
}

void set_constraints(const RunRequest& o, pipeline::RunOptions& ro, const Progress& say) {
  if (!o.config.empty()) {
    const auto config = pipeline::load_run_config(resolve_input(o.config));
    ro.constraints = config.constraints;
    if (config.nb_cols_to_use) ro.nb_cols_to_use = *config.nb_cols_to_use;
  }
  ro.constraints = allocate::parse_constraint_selection(o.constraint_selection, ro.constraints);
  if (o.nb_cols_to_use > 0) ro.nb_cols_to_use = o.nb_cols_to_use;
  if (ro.constraints != allocate::ConstraintSelection{} || ro.nb_cols_to_use != schedule::kDefaultNbColsToUse)
    say("constraint selection " + allocate::to_string(ro.constraints) + ", nb_cols_to_use " +
        std::to_string(ro.nb_cols_to_use));
}

// Writes the result files into the staging directory and moves it into place. Paths inside it
// (the models of infeasible groups, a file that could not be written) are named where they are
// once moved: the staging directory is gone by the time anyone reads them.
void write_and_commit(pipeline::RunResult& result, const PreparedRun& run) {
  auto& results = *run.results;
  for (auto& g : result.groups)
    if (!g.allocation.mps_path.empty()) g.allocation.mps_path = results.final_path(g.allocation.mps_path).string();
  try {
    report::write_results(result, run.accelerator, results.staging(), run.options.solver, run.inline_timings,
                          run.group_files);
  } catch (const Error& e) {
    Location where = e.where();
    where.file = results.final_path(where.file).string();
    throw Error(e.message(), where, e.kind());
  }
  results.commit();
}

}  // namespace

PreparedRun prepare_run(const RunRequest& o, HostContext& ctx, const Progress& say) {
  PreparedRun run;
  run.out_dir = std::filesystem::path(o.out) / experiment_id(o, o.workload);  // a bad id: before any work
  const auto hw_path = resolve_input(o.hardware);
  say("hardware " + hw_path.string());
  run.accelerator = hardware::load_accelerator(hw_path);
  run.source = o.workload;
  if (!run.source.block.empty()) {
    run.source.file.clear();
    say("block " + run.source.block);
  } else {
    run.source.file = resolve_input(run.source.file).string();
    say("workload " + run.source.file);
  }
  auto loaded = load_workload(ctx, run.source);
  run.workload = std::move(loaded.workload);
  run.cast_tensors = loaded.cast_tensors;

  auto& ro = run.options;
  if (!o.mapping.empty()) ro.mapping = resolve_input(o.mapping);
  if (!o.intra_core_tiling.empty()) ro.intra_core_tiling = pipeline::parse_intra_core_tiling(o.intra_core_tiling);
  set_cut_points(o.fusion_cut_points, ro);
  ro.threads = o.threads;
  ro.time_limit_s = o.time_limit;
  ro.memory_fallback = !o.no_memory_fallback;
  ro.deduplicate = !o.no_dedup;
  set_constraints(o, ro, say);
  ro.cost_backends = ctx.plugins().registries().cost_backend_list();
  // The reference expands Softmax and LpNormalization on its automatic path (aie-and-defaults §4a).
  if (!o.no_decompose && !run.source.decompose) ro.expand = automatic_path_expansion(ctx);
  run.inline_timings = o.inline_timings;
  run.group_files = !o.summary_only;
  // An output that cannot be written is found before the pipeline runs.
  run.results = std::make_unique<report::StagedResultDirectory>(run.out_dir);
  ro.failure_dir = run.results->staging();
  ro.progress = say;
  return run;
}

RunOutcome execute_run(PreparedRun run) {
  auto result = [&] {
    try {
      return pipeline::run(run.workload, run.accelerator, run.options);
    } catch (const Error& e) {  // a group the schedule cannot take: name the workload file
      throw run.source.file.empty() ? e : e.within(Location{.file = run.source.file});
    }
  }();
  result.cast = run.source.cast;
  result.cast_tensors = run.cast_tensors;
  write_and_commit(result, run);
  auto fallbacks = report::cost_fallbacks(result);
  return RunOutcome{run.out_dir, std::move(run.accelerator), std::move(result), fallbacks};
}

}  // namespace stream::host
