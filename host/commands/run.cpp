// `stream run`: the whole mapping pipeline on one workload and one accelerator.
//
//   stream run [--hardware H] [--workload W] [--mapping M] [--intra-core-tiling SPEC]
//              [--fusion-cut-points per-layer|N1,N2] [--out DIR] [--experiment-id ID]
//              [--threads N] [--time-limit S] [--block KEY --param k=v ...] [--decompose | --no-decompose]
//              [--no-memory-fallback] [--inline-timings] [--summary-only] [--config RUN.yaml]
//              [--constraint-selection pipelining=span,dma_channels=off,...] [--nb-cols-to-use N]
//              [--layout fixed|choose] [--cost-profile reference|full] [--strict]
//              [--compat none|stream-1.13]
//
// The allocation MILP's constraint selection (allocate/constraint_selection.hpp) and the columns
// of memory cores come from --config (pipeline/run_config.hpp), then from the two options.
// Defaults: the bundled 2-conv workload on the bundled TPU-like quad core. The run itself is
// host/run_experiment.hpp, shared with the Python module. Progress goes to stderr; stdout gets a
// short table (total latency, energy, EDP, per group latency, share and wall time). Results go to
// DIR/ID/ (see report/write.hpp), whole or not at all (report/result_directory.hpp): the wall
// times only in timings.*, so every other file is byte-identical for the same inputs. Exit 1 when
// a group's allocation MILP has no solution (its diagnosis and model.mps are written). With
// --strict, exit 2 when a Conv/Gemm/MatMul-like node's cost is an estimate (nothing written).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include <stream/pipeline/metrics.hpp>
#include <stream/report/write.hpp>

#include "../command.hpp"
#include "../interrupt.hpp"
#include "../run_experiment.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::run_command {
namespace {

void print_table(const RunOutcome& outcome, bool group_files) {
  const auto& result = outcome.result;
  std::printf("%-14s %16lld cycles\n", "Total latency:", static_cast<long long>(result.total_latency));
  std::printf("%-14s %16.6g pJ\n", "Total energy:", result.total_energy);
  std::printf("%-14s %16.6g pJ*cycles\n", "EDP:", result.edp);
  const auto metrics = pipeline::run_metrics(result, outcome.accelerator);
  std::printf("%-14s %16.6g spatial (latency-weighted), ", "MAC util:", metrics.mac_spatial_utilization);
  if (metrics.end_to_end_mac_utilization) std::printf("%.6g end to end\n", *metrics.end_to_end_mac_utilization);
  else std::printf("end to end undefined (no MAC work or no latency)\n");
  if (const auto* full = pipeline::fullest_core(metrics.memory); full && full->peak_group >= 0)
    std::printf("%-14s %16.0f bits, %.1f%% of core %d [%s] (group %d, slot %d)\n", "Peak memory:", full->peak_bits,
                100.0 * full->share(), full->core, full->name.c_str(), full->peak_group, full->peak_slot);
  std::printf("%-8s %14s %9s %16s %10s  %s\n", "group", "latency", "share", "energy (pJ)", "wall (s)", "status");
  for (const auto& g : result.groups) {
    const double share = result.total_latency == 0
                             ? 0.0
                             : 100.0 * static_cast<double>(g.allocation.total_latency) / static_cast<double>(result.total_latency);
    std::printf("%-8d %14lld %8.1f%% %16.6g %10.3f  %s\n", g.index, static_cast<long long>(g.allocation.total_latency),
                share, g.energy.total(), outcome.timings.groups.at(static_cast<std::size_t>(g.index)).wall_time_s,
                allocate::name(g.allocation.status));
  }
  if (outcome.fallbacks.count() > 0)
    std::printf("estimated: %s (see %s)\n", report::fallback_note(outcome.fallbacks).c_str(),
                report::estimate_reasons_file(group_files).c_str());
}

// A fused group (the reference's automatic fusion and tiling) slower than its own nodes run as
// one group per layer: said, not silently given as the only figure.
void print_per_layer_hints(const pipeline::RunResult& result) {
  for (const auto& g : result.groups)
    if (g.per_layer_latency >= 0)
      std::cerr << "[stream run] hint: group " << g.index << " (" << g.workload.computation_nodes().size()
                << " compute nodes fused) takes " << g.allocation.total_latency << " cycles; its nodes as one group per layer take "
                << g.per_layer_latency << " (--fusion-cut-points per-layer)\n";
}

// A latency in cycles in full; an energy or EDP in six digits.
std::string figure(double v) {
  char buf[64];
  if (std::abs(v) < 1e15 && v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The optimizer's lines: automatic and best figures, and whether the search was cut short.
void print_optimizer(const optimize::OptimizeResult& r) {
  const auto& automatic = r.evaluations.front();
  const double best = r.best_evaluation ? r.evaluations.at(*r.best_evaluation).objective : automatic.objective;
  const char* what = optimize::name(r.spec.objective);
  if (r.spec.objective == optimize::Objective::Pareto) {
    std::printf("%-14s %zu points on the latency-energy front (front/point_<k>.yaml); best = least EDP\n", "Optimizer:", r.front.size());
  } else if (!r.automatic()) {
    if (r.best_evaluation)
      std::printf("%-14s %s %s (the automatic mapping has no feasible allocation)\n", "Optimizer:", what, figure(best).c_str());
    else
      std::printf("%-14s no candidate is feasible, nor is the automatic mapping: its diagnosis follows\n", "Optimizer:");
  } else {
    std::printf("%-14s %s %s -> %s (%+.1f%% vs the automatic mapping)%s\n", "Optimizer:", what, figure(automatic.objective).c_str(),
                figure(best).c_str(), 100.0 * (best / automatic.objective - 1.0), r.best_evaluation ? "" : ": no candidate beat it");
  }
  std::printf("%-14s %zu of %zu evaluations, %zu group runs, best at evaluation %zu, %.1f s\n", "", r.spent(), r.spec.evaluations,
              r.group_runs, r.best_evaluation.value_or(0), r.wall_s);
  if (r.cancelled)
    std::printf("%-14s cut short by an interrupt after %zu of %zu evaluations: the best found so far\n", "", r.spent(), r.spec.evaluations);
  else if (r.still_improving())
    std::printf("%-14s the budget ran out while the search was still improving: a larger evaluations= may find better\n", "");
}

void run(const RunRequest& o, HostContext& ctx) {
  const auto t0 = std::chrono::steady_clock::now();
  auto say = [](const std::string& s) { std::cerr << "[stream run] " << s << "\n"; };
  auto prepared = prepare_run(o, ctx, say);
  prepared.built.spec.per_layer_check = true;  // for the hint below; the figures stay the fused groups'
  static std::atomic<bool> stop{false};
  if (prepared.built.optimize) {  // Ctrl-C keeps the best found
    prepared.env.cancel = &stop;
    stop_softly(&stop);
  }
  const auto outcome = execute_run(std::move(prepared));
  stop_softly(nullptr);
  if (outcome.optimized) print_optimizer(*outcome.optimized);
  const bool group_files = !o.summary_only;  // a --summary-only run has no core_cost_lut.yaml to point at
  if (const auto warning = report::fallback_warning(outcome.fallbacks, 3, report::estimate_reasons_file(group_files));
      !warning.empty())
    std::cerr << "[stream run] warning: " << warning << "\n";
  say("results in " + outcome.out_dir.string());
  print_table(outcome, group_files);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("wall time: %.3f s\n", wall);
  print_per_layer_hints(outcome.result);
  for (const auto& g : outcome.result.groups)
    if (!g.allocation.solved()) {
      std::cerr << "[stream run] group " << g.index << ": no allocation (" << allocate::name(g.allocation.status)
                << ")\n" << g.allocation.infeasibility;
      if (!g.allocation.mps.empty())
        std::cerr << "[stream run] model written to " << report::infeasible_model_path(outcome.out_dir, g.index).string() << "\n";
      ctx.exit_code = 1;
    }
}

void setup(CLI::App& app, HostContext& ctx) {
  auto opts = std::make_shared<RunRequest>();
  auto* cmd = app.add_subcommand("run", "Map a workload onto an accelerator: latency, energy, schedule");
  cmd->add_option("--hardware", opts->hardware, "Accelerator YAML (default: bundled tpu_like_quad_core)");
  cmd->add_option("--workload", opts->workload.file, "Workload model (default: bundled 2-conv ONNX)");
  add_workload_source_options(*cmd, opts->workload);
  cmd->add_option("--mapping", opts->mapping,
                  "Mapping YAML, search[?max=N&...] for the SwiGLU mapping search (docs/sweep.md), or "
                  "optimize[?objective=latency|energy|edp|pareto&evaluations=N&seed=K&jobs=J] for the mapping optimizer "
                  "(docs/optimize.md) (default: automatic mapping)");
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
  // Checked by prepare_run (layout::parse_layout_mode), so a bad value is a bad input: exit 2.
  cmd->add_option("--layout", opts->layout,
                  "Data layouts: fixed (default) keeps the model's layouts and prices them; choose picks one per "
                  "tensor by cycles, then energy, inserting conversions (on a core or a strided DMA) where "
                  "cheaper (layouts.yaml; docs/layout.md)");
  // Checked by prepare_run (cost::parse_cost_profile), as --layout.
  cmd->add_option("--cost-profile", opts->cost_profile,
                  "Latency of the ideal-cycle estimates: reference (default) keeps the reference's rule; full "
                  "also bounds it by their memory traffic over the ports' bandwidths (docs/cost-model.md)");
  // Checked by prepare_run (parse_compat), as --layout.
  cmd->add_option("--compat", opts->compat,
                  "Whose automatic path: none (default) is this tool's; stream-1.13 reproduces the reference's runs "
                  "(layout operators split fusion groups, its tilers, its memory rows; docs/pipeline.md)");
  cmd->add_flag("--strict", opts->strict,
                "Refuse ideal-cycle estimates for Conv/Gemm/MatMul-like nodes: exit 2 naming the first (group, node, "
                "core) and why, with no result written (docs/results.md)");
  // Hidden: solves every group even when an identical one was solved (the dedup tests compare).
  cmd->add_flag("--no-dedup", opts->no_dedup, "Solve structurally identical groups again")->group("");
  cmd->add_flag("--summary-only", opts->summary_only,
                "Write summary.* and timings.* only, no per-group files (for sweeps)");
  cmd->callback([opts, &ctx] { run(*opts, ctx); });
}

}  // namespace

STREAM_HOST_COMMAND(run, setup);

}  // namespace stream::host::run_command
