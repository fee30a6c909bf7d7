#include "run_experiment.hpp"

#include <exception>
#include <future>
#include <optional>
#include <sstream>

#include <stream/allocate/solver.hpp>
#include <stream/compat.hpp>
#include <stream/cost/core_probe.hpp>
#include <stream/diagnostics/diagnostics.hpp>
#include <stream/error.hpp>
#include <stream/out_of_memory.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/mapping/group_mapping.hpp>
#include <stream/pipeline/run_config.hpp>
#include <stream/report/write.hpp>
#include <stream/io/file_output.hpp>
#include <stream/io/utf8.hpp>
#include <stream/pipeline/mapping_search.hpp>
#include <stream/mapping/mapping.hpp>
#include <nlohmann/json.hpp>

#include "host_context.hpp"
#include "inputs.hpp"
#include "plugin_host.hpp"
#include "validation.hpp"

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
  // A full-profile run gets its own directory: its latencies differ from the default run's.
  const bool full = o.cost_profile == cost::name(cost::CostProfile::Full);
  // So does a compatibility-mode run (its groups and tiles differ).
  const bool compat = o.compat != name(Compat::None);
  return report::as_path_component(stem(o.hardware) + "-" + source.label() +
                                   (source.cast.empty() ? "" : "-" + source.cast) + (full ? "-full" : "") +
                                   (compat ? "-" + o.compat : "") + "-constraint_optimization");
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

// The accelerator is read on another thread while the workload loads (YAML reading and opening
// the frontend's libraries were each a third of the default run's start). Its warnings are kept
// and logged when it is taken, after the workload's messages, so that stderr is the same whatever
// the timing.
// The cores are probed there too (validation.hpp), so that a file the cost model cannot use is an
// error before any figure, at no cost to the start-up.
struct AcceleratorRead {
  std::optional<hardware::Accelerator> accelerator;
  Diagnostics diagnostics{false};
  std::vector<cost::CoreProblem> problems;
};

std::future<AcceleratorRead> read_accelerator_async(const std::filesystem::path& path) {
  return std::async(std::launch::async, [path] {
    AcceleratorRead r;
    r.accelerator = hardware::read_accelerator(path, r.diagnostics);
    if (r.accelerator) r.problems = cost::probe_accelerator(*r.accelerator);
    return r;
  });
}

hardware::Accelerator take_accelerator(std::future<AcceleratorRead>& reading, const std::filesystem::path& path,
                                       HostContext& ctx) {
  AcceleratorRead r = reading.get();
  if (r.accelerator)
    add_probe_errors(*r.accelerator, r.problems, ctx.plugins().registries().cost_backend_list(), r.diagnostics);
  r.diagnostics.log_warnings();
  r.diagnostics.throw_if_errors("invalid accelerator", path.string());
  return std::move(*r.accelerator);
}

}  // namespace

std::filesystem::path result_directory(const RunRequest& o) {
  return std::filesystem::path(o.out) / experiment_id(o, o.workload);
}

namespace {

PreparedRun prepare(const RunRequest& o, HostContext& ctx, const Progress& say) {
  PreparedRun run;
  run.out_dir = result_directory(o);  // a bad id: before any work
  run.options.layout = pipeline::parse_layout_mode(o.layout, "--layout");    // so is a bad layout mode
  run.options.cost_profile = cost::parse_cost_profile(o.cost_profile, "--cost-profile");  // and profile
  run.options.compat = parse_compat(o.compat, "--compat");                                    // and mode
  const auto hw_path = resolve_input(o.hardware);
  say("hardware " + hw_path.string());
  auto reading = read_accelerator_async(hw_path);
  run.source = o.workload;
  run.source.keep_layout_ops = run.options.compat == Compat::Stream113;  // A1: the reference's FusionEdges
  std::optional<LoadedWorkload> loaded;
  std::exception_ptr workload_error;
  try {
    if (!run.source.block.empty()) {
      run.source.file.clear();
      say("block " + run.source.block);
    } else {
      run.source.file = resolve_input(run.source.file).string();
      say("workload " + run.source.file);
    }
    loaded = load_workload(ctx, run.source);
  } catch (...) {
    workload_error = std::current_exception();
  }
  run.accelerator = take_accelerator(reading, hw_path, ctx);  // its error comes first, as when read first
  if (workload_error) std::rethrow_exception(workload_error);
  run.workload = std::move(loaded->workload);
  run.cast_tensors = loaded->cast_tensors;
  run.solver_ready = std::async(std::launch::async, [solver = run.options.solver] {
    try {
      allocate::make_solver(solver)->prepare();
    } catch (const std::exception&) {  // the first solve meets it again and reports it
    }
  });

  auto& ro = run.options;
  if (pipeline::is_search_spec(o.mapping)) {
    (void)pipeline::parse_search_spec(o.mapping);  // a bad key: before any work
    run.mapping_search = o.mapping;
  } else if (!o.mapping.empty()) {
    ro.mapping = resolve_input(o.mapping);
  }
  if (!o.intra_core_tiling.empty()) ro.intra_core_tiling = mapping::parse_tiling_spec(o.intra_core_tiling);
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
  run.strict = o.strict;
  run.group_files = !o.summary_only;
  // An output that cannot be written is found before the pipeline runs.
  run.results = std::make_unique<report::StagedResultDirectory>(run.out_dir);
  ro.failure_dir = run.results->staging();
  ro.progress = say;
  return run;
}

}  // namespace

PreparedRun prepare_run(const RunRequest& o, HostContext& ctx, const Progress& say) {
  return in_step("parse", [&] { return prepare(o, ctx, say); });
}

namespace {

// One folder per variant, as the reference's `<out>/<i>/`: its mapping, `latency.yaml` (.inf and
// the reason when it failed) and, when its allocation failed, the diagnosis.
void write_variant(const pipeline::VariantOutcome& v, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  mapping::write_mapping_file(v.mapping, dir / "mapping.yaml");
  std::string latency = "latency: " + (v.reason.empty() ? std::to_string(static_cast<std::int64_t>(v.latency)) : ".inf") + "\n";
  if (!v.reason.empty()) latency += "reason: " + io::dump_json(nlohmann::json(v.reason), -1) + "\n";
  io::write_file(dir / "latency.yaml", latency);
  if (!v.infeasibility.empty()) io::write_file(dir / "infeasibility.txt", v.infeasibility);
}

// The search's best run; its full mapping (kernels included) goes to best_mapping.yaml, every
// variant's latency (.inf when it failed) and reason to mapping_search.yaml, and each variant's
// files to variants/<index>/.
pipeline::RunResult run_search(PreparedRun& run) {
  auto options = run.options;
  options.failure_dir.clear();  // a failed variant's model is not the result's
  auto s = pipeline::search_mapping(run.workload, run.accelerator, pipeline::parse_search_spec(run.mapping_search), options);
  std::ostringstream out;
  out << "search: \"" << run.mapping_search << "\"\nbest: " << (s.best ? std::to_string(*s.best) : "null") << "\nvariants:\n";
  for (const auto& v : s.variants) {
    out << "  - {index: " << v.index << ", tag: " << io::dump_json(nlohmann::json(v.tag), -1) << ", latency: ";
    if (v.reason.empty()) out << static_cast<std::int64_t>(v.latency) << "}\n";
    else out << ".inf, reason: " << io::dump_json(nlohmann::json(v.reason), -1) << "}\n";
  }
  io::write_file(run.results->staging() / "mapping_search.yaml", out.str());
  for (const auto& v : s.variants) write_variant(v, run.results->staging() / "variants" / std::to_string(v.index));
  if (!s.best)
    throw Error("mapping search: all " + std::to_string(s.variants.size()) + " variants failed; the first (" +
                s.variants.front().tag + "): " + s.variants.front().reason);
  mapping::write_mapping_file(*s.best_mapping, run.results->staging() / "best_mapping.yaml");
  return std::move(*s.best_run);
}

}  // namespace

RunOutcome execute_run(PreparedRun run) {
  auto result = [&] {
    try {
      // The pipeline names its own steps (tiling, cost, schedule, allocation); "pipeline" is the rest.
      return in_step("pipeline", [&] {
        if (!run.mapping_search.empty()) return run_search(run);
        return pipeline::run(run.workload, run.accelerator, run.options);
      });
    } catch (const OutOfMemory&) {  // the environment's, not the workload's: no file to name
      throw;
    } catch (const Error& e) {  // a group the schedule cannot take: name the workload file
      throw run.source.file.empty() ? e : e.within(Location{.file = run.source.file});
    }
  }();
  result.cast = run.source.cast;
  result.cast_tensors = run.cast_tensors;
  auto fallbacks = report::cost_fallbacks(result);
  if (run.strict)
    if (const auto estimate = report::first_mac_estimate(fallbacks)) throw Error(report::strict_message(*estimate));
  in_step("writing the results", [&] { write_and_commit(result, run); });
  return RunOutcome{run.out_dir, std::move(run.accelerator), std::move(result), fallbacks};
}

}  // namespace stream::host
