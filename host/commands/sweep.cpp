// `stream sweep`: design-space exploration in one process.
//
//   stream sweep FILE --out DIR [--jobs N] [--shard I/N] [--strict] [--restart]
//   stream sweep merge DIR... --out DIR
//   stream sweep submit FILE --slurm --out DIR ...   (commands/sweep_submit.cpp)
//
// FILE is a sweep file (sweep/sweep_file.hpp; docs/sweep.md). The sweep itself (shared inputs,
// thread pool, resumption, shards, result files) is host/sweep_runner.hpp, shared with the Python
// module; this command parses the options and prints the one-line summary.
#include <cstdio>

#include <stream/error.hpp>

#include "../command.hpp"
#include "../inputs.hpp"
#include "../sweep_runner.hpp"
#include "sweep_submit.hpp"

// Each command in a namespace of its own: the sources compile in batches (CMakeLists.txt), and
// every command names its parts setup, run and Options.
namespace stream::host::sweep_command {
namespace {

struct Options {
  std::string file;
  std::string out = "sweep";
  int jobs = 0;  ///< 0: one per hardware thread
  std::string shard;
  std::vector<std::string> merge_dirs;
  bool keep_points = false;
  bool strict = false;
  bool restart = false;
};

void run(const Options& o, HostContext& ctx) {
  const auto outcome =
      run_sweep({sweep::load_sweep_file(resolve_input(o.file)), o.out, o.jobs, o.shard, o.keep_points, nullptr, false,
                 o.strict, o.restart},
                ctx);
  std::printf("%zu points: %zu ok, %zu not (see status and reason); Pareto front: %zu\n", outcome.points, outcome.ok,
              outcome.points - outcome.ok, outcome.pareto.size());
  std::printf("results in %s (results.csv, results.jsonl, pareto.csv, report.html)\n", o.out.c_str());
  // Every point is evaluated and every file written first: the rows say which points failed.
  if (o.strict && outcome.strict_failures > 0) {
    std::fprintf(stderr, "error: %zu of %zu points rest on estimates for Conv/Gemm/MatMul-like nodes; the first, %s\n",
                 outcome.strict_failures, outcome.points, outcome.first_strict_failure.c_str());
    ctx.exit_code = 2;
  }
}

void merge(const Options& o) {
  const auto points = merge_sweeps({o.merge_dirs.begin(), o.merge_dirs.end()}, o.out);
  std::printf("%zu points from %zu directories; results in %s\n", points, o.merge_dirs.size(), o.out.c_str());
}

void setup(CLI::App& app, HostContext& ctx) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("sweep", "Evaluate every design point of a sweep file (docs/sweep.md)");
  cmd->add_option("file", o->file, "Sweep file (YAML)");
  cmd->add_option("--out", o->out, "Results directory (results.csv, results.jsonl, pareto.csv)")->capture_default_str();
  cmd->add_option("--jobs,-j", o->jobs, "Points evaluated at once (default: one per hardware thread)");
  cmd->add_flag("--keep-points", o->keep_points,
                "Also write each point's full results (as stream run) to OUT/points/<id>/, linked from report.html");
  cmd->add_flag("--strict", o->strict,
                "A point whose Conv/Gemm/MatMul-like node would be an ideal-cycle estimate fails with the reason; "
                "the sweep exits 2 after writing every result when any did (docs/sweep.md)");
  cmd->add_flag("--restart", o->restart,
                "Start over: remove the rows and result files of an earlier run in --out and evaluate every point "
                "(without it a rerun resumes, skipping the points already done)");
  cmd->add_option("--shard", o->shard, "Evaluate shard I of N (I/N, 0-based): every N-th point from the I-th");
  auto* m = cmd->add_subcommand("merge", "Combine the results of sweep shards");
  m->add_option("dirs", o->merge_dirs, "Shard result directories")->required();
  m->add_option("--out", o->out, "Merged results directory")->required();
  m->callback([o] { merge(*o); });
  add_sweep_submit(*cmd);
  cmd->callback([o, cmd, &ctx] {
    if (cmd->got_subcommand("merge") || cmd->got_subcommand("submit")) return;
    if (o->file.empty()) throw Error("stream sweep: give a sweep file (or `stream sweep merge DIR... --out DIR`)");
    run(*o, ctx);
  });
}

}  // namespace

STREAM_HOST_COMMAND(sweep, setup);

}  // namespace stream::host::sweep_command
