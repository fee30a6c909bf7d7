// `stream sweep submit`: a sweep as a Slurm job array, one shard per task, and a merge job.
//
//   stream sweep submit FILE --slurm --out DIR [--array-size N] [--jobs N] [--partition P]
//                      [--time T] [--dry-run]
//
// Writes DIR/shards.sbatch and DIR/merge.sbatch (host/slurm_script.hpp) and, unless --dry-run,
// submits them with sbatch; the merged results appear in DIR as those of `stream sweep` would.
// The sweep file is read first, so a bad one is reported here rather than by every task.
#include "sweep_submit.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <cstdio>
#include <optional>
#include <stream/error.hpp>
#include <stream/sweep/sweep_file.hpp>

#include "../inputs.hpp"
#include "../slurm_submit.hpp"
#include "../sweep_point.hpp"
#include "../sweep_preflight.hpp"

namespace fs = std::filesystem;

namespace stream::host {
namespace {

// More tasks than the 10^3 of Slurm's default MaxArraySize would be refused by many clusters.
constexpr int kDefaultMaxTasks = 100;

struct SubmitOptions {
  std::string file;
  std::string out;
  bool slurm = false;
  std::optional<int> array_size;  ///< none: one task per point, at most kDefaultMaxTasks
  int jobs = 1;
  std::string partition;
  std::string time;
  bool dry_run = false;
};

// One task per shard; a shard without points would leave a folder the merge cannot read.
int task_count(const SubmitOptions& o, std::uint64_t points) {
  const auto wanted = static_cast<std::uint64_t>(o.array_size.value_or(kDefaultMaxTasks));
  const auto tasks = std::min(wanted, points);
  if (o.array_size && tasks < wanted)
    std::fprintf(stderr, "[stream sweep submit] the sweep has %llu points: %llu array tasks, not %d\n",
                 static_cast<unsigned long long>(points), static_cast<unsigned long long>(tasks), *o.array_size);
  return static_cast<int>(tasks);
}

SlurmArrayJob array_job(const SubmitOptions& o) {
  if (!o.slurm) throw Error("stream sweep submit: give --slurm (Slurm is the scheduler it submits to)");
  if (o.file.empty()) throw Error("stream sweep submit: give a sweep file");
  if (o.out.empty()) throw Error("stream sweep submit: give --out DIR, where the results will appear");
  if (o.array_size && *o.array_size < 1)
    throw Error("stream sweep submit: --array-size must be at least 1, got " + std::to_string(*o.array_size));
  if (o.jobs < 1) throw Error("stream sweep submit: --jobs must be at least 1, got " + std::to_string(o.jobs));
  const fs::path file = resolve_input(o.file);
  const auto sweep = sweep::load_sweep_file(file);
  check_sweep_overrides(sweep, PointResolver(sweep));  // here, not in every task
  check_sweep_mapping_options(sweep);
  SlurmArrayJob job;
  job.stream = fs::path(boost::dll::program_location().string());
  job.sweep_file = fs::absolute(file).lexically_normal();
  job.out = fs::absolute(o.out).lexically_normal();
  if (!job.out.has_filename()) job.out = job.out.parent_path();  // "dir/" names dir
  job.tasks = task_count(o, sweep::point_count(sweep));  // the sample's, or the product (at most 10^8)
  job.jobs = o.jobs;
  job.partition = o.partition;
  job.time = o.time;
  return job;
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + shell_quote(a);
  return s;
}

void submit(const SubmitOptions& o) {
  const auto job = array_job(o);
  auto s = write_slurm_scripts(job);
  std::printf("wrote %s (%d array tasks, one shard each) and %s\n", s.shard_script.c_str(), job.tasks, s.merge_script.c_str());
  if (o.dry_run) {
    std::printf("dry run; to submit, run (ARRAY_JOB_ID: the number the first prints):\n  %s\n  %s\n",
                command_line(array_submit_command(s)).c_str(), command_line(merge_submit_command(s, "ARRAY_JOB_ID")).c_str());
    return;
  }
  submit_slurm(s);
  std::printf("array job %s: shard I in %s/shard-I, its log in %s/logs/shard-I.out\n", s.array_job_id.c_str(),
              job.out.c_str(), job.out.c_str());
  std::printf("merge job %s, after every task of %s succeeded\n", s.merge_job_id.c_str(), s.array_job_id.c_str());
  std::printf("results will appear in %s (results.csv, results.jsonl, pareto.csv, report.html)\n", job.out.c_str());
}

}  // namespace

void add_sweep_submit(CLI::App& sweep) {
  auto o = std::make_shared<SubmitOptions>();
  auto* cmd = sweep.add_subcommand("submit", "Run a sweep as a Slurm job array, one shard per task, then merge (docs/sweep.md)");
  cmd->add_option("file", o->file, "Sweep file (YAML)");
  cmd->add_flag("--slurm", o->slurm, "Submit to Slurm with sbatch (required: the one scheduler supported)");
  cmd->add_option("--out", o->out, "Results directory (also holds the scripts, the shards and the jobs' logs)");
  cmd->add_option("--array-size", o->array_size, "Array tasks, one shard each (default: one per point, at most 100)");
  cmd->add_option("--jobs,-j", o->jobs, "CPUs per task, and the points each task evaluates at once")->capture_default_str();
  cmd->add_option("--partition", o->partition, "Slurm partition (default: the cluster's)");
  cmd->add_option("--time", o->time, "Time limit of each job, as sbatch --time (default: the partition's)");
  cmd->add_flag("--dry-run", o->dry_run, "Write the scripts and print the sbatch commands without running them");
  cmd->callback([o] { submit(*o); });
}

}  // namespace stream::host
