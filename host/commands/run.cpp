// `stream run`: the whole mapping pipeline on one workload and one accelerator.
//
//   stream run [--hardware H] [--workload W] [--mapping M] [--intra-core-tiling SPEC]
//              [--fusion-cut-points per-layer|N1,N2] [--out DIR] [--experiment-id ID]
//              [--threads N] [--time-limit S] [--block KEY --param k=v ...] [--decompose | --no-decompose]
//              [--no-memory-fallback] [--inline-timings] [--summary-only] [--config RUN.yaml]
//              [--constraint-selection pipelining=span,dma_channels=off,...] [--nb-cols-to-use N]
//
// The allocation MILP's constraint selection (allocate/constraint_selection.hpp) and the columns
// of memory cores come from --config (pipeline/run_config.hpp), then from the two options.
// Defaults: the bundled 2-conv workload on the bundled TPU-like quad core. Progress goes to
// stderr; stdout gets a short table (total latency, energy, EDP, per group latency, share and
// wall time). Results go to DIR/ID/ (see report/write.hpp), whole or not at all
// (report/result_directory.hpp): the wall times only in timings.*, so every other file is
// byte-identical for the same inputs. Exit 1 when a group's allocation MILP
// has no solution (its diagnosis and model.mps are written).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/group_mapping.hpp>
#include <stream/pipeline/metrics.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/pipeline/run_config.hpp>
#include <stream/report/cost_fallbacks.hpp>
#include <stream/report/result_directory.hpp>
#include <stream/report/write.hpp>

#include "../command.hpp"
#include "../inputs.hpp"
#include "../plugin_host.hpp"
#include "../workload_source.hpp"

namespace stream::host {
namespace {

struct Options {
  std::string hardware = "hardware/tpu_like_quad_core.yaml";
  WorkloadSource workload{.file = "workload/2conv_1_8_32_32_16_32_3.onnx"};
  std::string mapping;
  std::string intra_core_tiling;
  std::string fusion_cut_points;
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
};

std::string stem(const std::string& p) { return std::filesystem::path(p).stem().string(); }

// The results' directory name: the given id (one path component), or one built from what makes
// the run differ (hardware, workload with its block parameters and sizes, cast).
std::string experiment_id(const Options& o, const WorkloadSource& source) {
  if (o.experiment_id) {
    report::check_experiment_id(*o.experiment_id);
    return *o.experiment_id;
  }
  return report::as_path_component(stem(o.hardware) + "-" + source.label() +
                                   (source.cast.empty() ? "" : "-" + source.cast) + "-constraint_optimization");
}

// Writes the result files into the staging directory and moves it into place. Paths inside it
// (the models of infeasible groups, a file that could not be written) are named where they are
// once moved: the staging directory is gone by the time anyone reads them.
void write_and_commit(pipeline::RunResult& result, const hardware::Accelerator& acc,
                      report::StagedResultDirectory& results, const pipeline::RunOptions& ro, bool inline_timings,
                      bool group_files) {
  for (auto& g : result.groups)
    if (!g.allocation.mps_path.empty()) g.allocation.mps_path = results.final_path(g.allocation.mps_path).string();
  try {
    report::write_results(result, acc, results.staging(), ro.solver, inline_timings, group_files);
  } catch (const Error& e) {
    Location where = e.where();
    where.file = results.final_path(where.file).string();
    throw Error(e.message(), where, e.kind());
  }
  results.commit();
}

void run(const Options& o, HostContext& ctx) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto out_dir = std::filesystem::path(o.out) / experiment_id(o, o.workload);  // a bad id: before any work
  const auto hw_path = resolve_input(o.hardware);
  auto say = [](const std::string& s) { std::cerr << "[stream run] " << s << "\n"; };
  say("hardware " + hw_path.string());
  const auto acc = hardware::load_accelerator(hw_path);
  WorkloadSource source = o.workload;
  if (!source.block.empty()) {
    source.file.clear();
    say("block " + source.block);
  } else {
    source.file = resolve_input(source.file).string();
    say("workload " + source.file);
  }
  const auto loaded = load_workload(ctx, source);
  const Workload& workload = loaded.workload;

  pipeline::RunOptions ro;
  if (!o.mapping.empty()) ro.mapping = resolve_input(o.mapping);
  if (!o.intra_core_tiling.empty()) ro.intra_core_tiling = pipeline::parse_intra_core_tiling(o.intra_core_tiling);
  if (o.fusion_cut_points == "per-layer") {
    ro.cut_mode = pipeline::CutMode::PerLayer;
  } else if (!o.fusion_cut_points.empty()) {
    ro.cut_mode = pipeline::CutMode::Explicit;
    std::stringstream ss(o.fusion_cut_points);
    for (std::string item; std::getline(ss, item, ',');)
      if (!item.empty()) ro.cut_points.push_back(item);
  }
  ro.threads = o.threads;
  ro.time_limit_s = o.time_limit;
  ro.memory_fallback = !o.no_memory_fallback;
  ro.deduplicate = !o.no_dedup;
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
  ro.cost_backends = ctx.plugins().registries().cost_backend_list();
  // The reference expands Softmax and LpNormalization on its automatic path (aie-and-defaults §4a).
  if (!o.no_decompose && !source.decompose) ro.expand = automatic_path_expansion(ctx);
  report::StagedResultDirectory results(out_dir);  // an --out that cannot be written: before the pipeline
  ro.failure_dir = results.staging();
  ro.progress = say;
  auto result = [&] {
    try {
      return pipeline::run(workload, acc, ro);
    } catch (const Error& e) {  // a group the schedule cannot take: name the workload file
      throw source.file.empty() ? e : e.within(Location{.file = source.file});
    }
  }();
  result.cast = source.cast;
  result.cast_tensors = loaded.cast_tensors;
  write_and_commit(result, acc, results, ro, o.inline_timings, !o.summary_only);
  const auto fallbacks = report::cost_fallbacks(result);
  if (const auto warning = report::fallback_warning(fallbacks); !warning.empty())
    std::cerr << "[stream run] warning: " << warning << "\n";
  say("results in " + out_dir.string());

  std::printf("%-14s %16lld cycles\n", "Total latency:", static_cast<long long>(result.total_latency));
  std::printf("%-14s %16.6g pJ\n", "Total energy:", result.total_energy);
  std::printf("%-14s %16.6g pJ*cycles\n", "EDP:", result.edp);
  const auto metrics = pipeline::run_metrics(result, acc);
  std::printf("%-14s %16.6g spatial (latency-weighted), ", "MAC util:", metrics.mac_spatial_utilization);
  if (metrics.end_to_end_mac_utilization) std::printf("%.6g end to end\n", *metrics.end_to_end_mac_utilization);
  else std::printf("end to end undefined (no MAC work or no latency)\n");
  std::printf("%-8s %14s %9s %16s %10s  %s\n", "group", "latency", "share", "energy (pJ)", "wall (s)", "status");
  for (const auto& g : result.groups) {
    const double share = result.total_latency == 0
                             ? 0.0
                             : 100.0 * static_cast<double>(g.allocation.total_latency) / static_cast<double>(result.total_latency);
    std::printf("%-8d %14lld %8.1f%% %16.6g %10.3f  %s\n", g.index, static_cast<long long>(g.allocation.total_latency),
                share, g.energy.total(), g.wall_time_s, allocate::name(g.allocation.status));
  }
  if (fallbacks.count() > 0)
    std::printf("estimated: %zu of %zu (node, core) costs are ideal-cycle estimates (see core_cost_lut.yaml)\n",
                fallbacks.count(), fallbacks.entries);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("wall time: %.3f s\n", wall);
  for (const auto& g : result.groups)
    if (g.allocation.slot_latency.empty()) {
      std::cerr << "[stream run] group " << g.index << ": no allocation (" << allocate::name(g.allocation.status)
                << ")\n" << g.allocation.infeasibility;
      if (!g.allocation.mps_path.empty()) std::cerr << "[stream run] model written to " << g.allocation.mps_path << "\n";
      ctx.exit_code = 1;
    }
}

void setup(CLI::App& app, HostContext& ctx) {
  auto opts = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("run", "Map a workload onto an accelerator: latency, energy, schedule");
  cmd->add_option("--hardware", opts->hardware, "Accelerator YAML (default: bundled tpu_like_quad_core)");
  cmd->add_option("--workload", opts->workload.file, "Workload model (default: bundled 2-conv ONNX)");
  add_workload_source_options(*cmd, opts->workload);
  cmd->add_option("--mapping", opts->mapping, "Mapping YAML (default: automatic mapping)");
  cmd->add_option("--intra-core-tiling", opts->intra_core_tiling, "Node.D<n>=<tile>,... (automatic mapping)");
  cmd->add_option("--fusion-cut-points", opts->fusion_cut_points, "per-layer, or node names N1,N2 (default: automatic)");
  cmd->add_option("--out", opts->out, "Output directory (default: outputs)");
  cmd->add_option("--experiment-id", opts->experiment_id, "Sub-directory name, one path component (default: <hw>-<workload>[-KEY=VALUE...]-constraint_optimization)");
  cmd->add_option("--threads", opts->threads, "Threads for the cost model and the solver")->check(CLI::Range(1, 1024));
  cmd->add_option("--time-limit", opts->time_limit, "Per-level MILP time limit in seconds (0: none)")->check(CLI::Range(0.0, 1e6));
  cmd->add_flag("--no-decompose", opts->no_decompose,
                "Keep Softmax and LpNormalization whole on the automatic path (the reference expands them)");
  cmd->add_flag("--no-memory-fallback", opts->no_memory_fallback,
                "Keep the reference's core choice even when a specialised core's memory makes a group infeasible");
  cmd->add_option("--config", opts->config, "Run-configuration YAML (constraint_selection, nb_cols_to_use)");
  cmd->add_option("--constraint-selection", opts->constraint_selection,
                  "Allocation MILP families and pipelining model: field=value,... with fields memory_capacity, "
                  "object_fifo_depth, buffer_descriptors, dma_channels (on/off) and pipelining (occupancy/span)");
  cmd->add_option("--nb-cols-to-use", opts->nb_cols_to_use,
                  "Columns whose memory cores may stage tensors (default 4; the reference's AIE tests use 8)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_flag("--inline-timings", opts->inline_timings,
                "Also write wall and solve times into summary.* and optimization_metrics.yaml (not only timings.*)");
  // Hidden: solves every group even when an identical one was solved (the dedup tests compare).
  cmd->add_flag("--no-dedup", opts->no_dedup, "Solve structurally identical groups again")->group("");
  cmd->add_flag("--summary-only", opts->summary_only,
                "Write summary.* and timings.* only, no per-group files (for sweeps)");
  cmd->callback([opts, &ctx] { run(*opts, ctx); });
}

}  // namespace

STREAM_HOST_COMMAND(run, setup);

}  // namespace stream::host
