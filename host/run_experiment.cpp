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
#include <stream/layout/choice.hpp>
#include <stream/pipeline/mapping_search.hpp>
#include <stream/mapping/mapping.hpp>
#include <nlohmann/json.hpp>

#include "host_context.hpp"
#include "inputs.hpp"
#include "optimizer_report.hpp"
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

// Writes the result files into the staging directory and moves it into place. Paths inside it
// (the models of infeasible groups, a file that could not be written) are named where they are
// once moved: the staging directory is gone by the time anyone reads them. `optimized`: the
// optimizer's outcome, whose figures summary.* and report.html show.
void write_and_commit(const pipeline::RunResult& result, const pipeline::RunTimings& timings, const PreparedRun& run,
                      const std::optional<optimize::OptimizeResult>& optimized) {
  auto& results = *run.results;
  const auto optimizer = optimized ? std::optional(optimizer_report(*optimized, result)) : std::nullopt;
  try {
    report::write_results(result, timings, run.accelerator, results.staging(), run.env.solver->name(), run.inline_timings,
                          run.group_files, results.target(), optimizer ? &*optimizer : nullptr);
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

// The workload as loaded (cast when asked), the accelerator read on another thread meanwhile;
// the accelerator's error comes first, as when read first.
void load_inputs(const RunRequest& o, PreparedRun& run, HostContext& ctx, const Progress& say) {
  const auto hw_path = resolve_input(o.hardware);
  say("hardware " + hw_path.string());
  auto reading = read_accelerator_async(hw_path);
  run.source = o.workload;
  run.source.keep_layout_ops = run.built.spec.compat == Compat::Stream113;  // A1: the reference's FusionEdges
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
  run.accelerator = take_accelerator(reading, hw_path, ctx);
  if (workload_error) std::rethrow_exception(workload_error);
  run.built.spec.cast = {run.source.cast, loaded->cast_tensors};
  run.workload = scheduled_workload(loaded->workload, o, run.built, ctx);
}

PreparedRun prepare(const RunRequest& o, HostContext& ctx, const Progress& say) {
  PreparedRun run;
  run.out_dir = result_directory(o);  // a bad id: before any work
  run.built = build_run_spec(o, ctx.plugins().registries().cost_backend_list());  // so is a bad option
  load_inputs(o, run, ctx, say);
  if (const auto line = constraint_line(run.built.spec); !line.empty()) say(line);
  run.env.solver = allocate::make_solver();
  run.solver_ready = std::async(std::launch::async, [solver = run.env.solver] {
    try {
      solver->prepare();
    } catch (const std::exception&) {  // the first solve meets it again and reports it
    }
  });
  run.inline_timings = o.inline_timings;
  run.strict = o.strict;
  run.group_files = !o.summary_only;
  // An output that cannot be written is found before the pipeline runs.
  run.results = std::make_unique<report::StagedResultDirectory>(run.out_dir);
  run.built.spec.keep_infeasible_models = true;  // report/ writes them with the other result files
  run.env.progress = say;
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

// The search's files: its full best mapping (kernels included) to best_mapping.yaml, every
// variant's latency (.inf when it failed) and reason to mapping_search.yaml, and each variant's
// files to variants/<index>/.
void write_search(const pipeline::SearchResult& s, const PreparedRun& run) {
  std::ostringstream out;
  out << "search: \"" << run.built.search_text << "\"\nbest: " << (s.best ? std::to_string(*s.best) : "null") << "\nvariants:\n";
  for (const auto& v : s.variants) {
    out << "  - {index: " << v.index << ", tag: " << io::dump_json(nlohmann::json(v.tag), -1) << ", latency: ";
    if (v.reason.empty()) out << static_cast<std::int64_t>(v.latency) << "}\n";
    else out << ".inf, reason: " << io::dump_json(nlohmann::json(v.reason), -1) << "}\n";
  }
  io::write_file(run.results->staging() / "mapping_search.yaml", out.str());
  for (const auto& v : s.variants) write_variant(v, run.results->staging() / "variants" / std::to_string(v.index));
  if (s.best_mapping) mapping::write_mapping_file(*s.best_mapping, run.results->staging() / "best_mapping.yaml");
}

// The run, the search's best run with the search's files, or the optimizer's with its files.
pipeline::RunResult run_pipeline(PreparedRun& run, pipeline::RunTimings& timings,
                                 std::optional<optimize::OptimizeResult>& optimized) {
  pipeline::RunEnv env = run.env;
  env.timings = &timings;
  if (run.built.optimize) {
    optimized.emplace();
    auto best = run_or_search(run.workload, run.accelerator, run.built, env, nullptr, &*optimized);
    optimize::write_optimize_files(*optimized, run.results->staging());
    return best;
  }
  if (!run.built.search) return pipeline::run(run.workload, run.accelerator, run.built.spec, env);
  pipeline::SearchResult s;
  auto best = run_or_search(run.workload, run.accelerator, run.built, env, &s);
  write_search(s, run);
  return best;
}

}  // namespace

RunOutcome execute_run(PreparedRun run) {
  pipeline::RunTimings timings;
  std::optional<optimize::OptimizeResult> optimized;
  auto result = [&] {
    try {
      // The pipeline names its own steps (tiling, cost, schedule, allocation); "pipeline" is the rest.
      return in_step("pipeline", [&] { return run_pipeline(run, timings, optimized); });
    } catch (const OutOfMemory&) {  // the environment's, not the workload's: no file to name
      throw;
    } catch (const Error& e) {  // a group the schedule cannot take: name the workload file
      throw run.source.file.empty() ? e : e.within(Location{.file = run.source.file});
    }
  }();
  auto fallbacks = report::cost_fallbacks(result);
  if (run.strict)
    if (const auto estimate = report::first_mac_estimate(fallbacks)) throw Error(report::strict_message(*estimate));
  in_step("writing the results", [&] { write_and_commit(result, timings, run, optimized); });
  return RunOutcome{run.out_dir, std::move(run.accelerator), std::move(result), std::move(timings), fallbacks,
                    std::move(optimized)};
}

}  // namespace stream::host
