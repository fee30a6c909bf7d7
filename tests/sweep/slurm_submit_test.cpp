// `stream sweep submit --slurm` without a Slurm: the scripts' text for a known job (each line
// derived by hand below), their quoting checked by letting bash run them, the dry run, the
// submission through a stand-in sbatch that records its arguments, and the errors (exit 2).
// tests/slurm/run_slurm_test.sh submits to a real Slurm.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <stream/error.hpp>

#include "slurm_script.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::host::SlurmArrayJob;
using stream::test::read;
using stream::test::run_command;

namespace {

SlurmArrayJob known_job() {
  SlurmArrayJob job;
  job.stream = "/opt/stream/bin/stream";
  job.sweep_file = "/data/sweeps/grid.yaml";
  job.out = "/scratch/run1";
  job.tasks = 4;
  job.jobs = 2;
  job.partition = "cpu";
  job.time = "01:30:00";
  return job;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// A file with `text`, executable.
void write_executable(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  fs::permissions(p, fs::perms::owner_all);
}

// A `stream` that prints its arguments, one a line: what bash made of the script's command.
void write_echo_stream(const fs::path& p) { write_executable(p, "#!/bin/bash\nprintf '%s\\n' \"$@\"\n"); }

std::vector<nlohmann::json> rows(const fs::path& results) {
  std::vector<nlohmann::json> out;
  std::ifstream in(results);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);
    j.erase("wall_s");  // the one figure that differs between runs
    out.push_back(j);
  }
  return out;
}

// Four points from bundled inputs (found without copies beside the sweep file).
const std::string kFourPoints =
    "axes:\n"
    "  hardware: [tpu_like_quad_core.yaml, simba_small.yaml]\n"
    "  workload: [2conv_1_8_32_32_16_32_3.onnx]\n"
    "  cast: [none, bf16]\n";

const std::string kStream = std::string(STREAM_BUILD_DIR) + "/bin/stream";

// A folder whose name holds a space, both quotes and a '$', with the sweep file in it.
fs::path awkward_fixture(const std::string& name) {
  const auto dir = stream::test::fresh_scratch_dir("slurm", name) / "a b'c\"$d";
  fs::create_directories(dir);
  std::ofstream(dir / "sweep.yaml") << kFourPoints;
  return dir;
}

}  // namespace

// Each #SBATCH line from the job's fields: array indices 0..tasks-1 (4 tasks: 0-3), CPUs per
// task = jobs, the log under OUT/logs with sbatch's %a (the task index); the command runs shard
// $SLURM_ARRAY_TASK_ID of 4 into OUT/shard-<index>, with the same --jobs.
TEST(SlurmScript, ShardScriptOfAKnownJob) {
  EXPECT_EQ(stream::host::shard_script(known_job()),
            "#!/bin/bash\n"
            "# Written by `stream sweep submit`: array task I evaluates shard I of 4 of the sweep\n"
            "#   /data/sweeps/grid.yaml\n"
            "# into $out/shard-I; merge.sbatch, beside this file, then combines them.\n"
            "#SBATCH --job-name=stream-sweep\n"
            "#SBATCH --array=0-3\n"
            "#SBATCH --cpus-per-task=2\n"
            "#SBATCH --partition=cpu\n"
            "#SBATCH --time=01:30:00\n"
            "#SBATCH --output=/scratch/run1/logs/shard-%a.out\n"
            "set -euo pipefail\n"
            "out=/scratch/run1\n"
            "exec /opt/stream/bin/stream sweep /data/sweeps/grid.yaml --shard \"$SLURM_ARRAY_TASK_ID/4\" "
            "--out \"$out/shard-$SLURM_ARRAY_TASK_ID\" --jobs 2\n");
}

// The merge job: no array and no CPU count; it lists shard-0..shard-3 and merges them into OUT.
// Its dependency is given on sbatch's command line (the array's id is known only then), and a
// failed shard ends it (--kill-on-invalid-dep) instead of leaving it pending for ever.
TEST(SlurmScript, MergeScriptOfAKnownJob) {
  EXPECT_EQ(stream::host::merge_script(known_job()),
            "#!/bin/bash\n"
            "# Written by `stream sweep submit`: merges the 4 shards of the sweep\n"
            "#   /data/sweeps/grid.yaml\n"
            "# into $out, once every task of shards.sbatch has succeeded.\n"
            "#SBATCH --job-name=stream-sweep-merge\n"
            "#SBATCH --kill-on-invalid-dep=yes\n"
            "#SBATCH --partition=cpu\n"
            "#SBATCH --time=01:30:00\n"
            "#SBATCH --output=/scratch/run1/logs/merge.out\n"
            "set -euo pipefail\n"
            "out=/scratch/run1\n"
            "shards=()\n"
            "for ((i = 0; i < 4; i++)); do shards+=(\"$out/shard-$i\"); done\n"
            "exec /opt/stream/bin/stream sweep merge \"${shards[@]}\" --out \"$out\"\n");
  auto plain = known_job();
  plain.partition.clear();
  plain.time.clear();
  const auto text = stream::host::merge_script(plain);
  EXPECT_EQ(text.find("--partition"), std::string::npos);
  EXPECT_EQ(text.find("--time"), std::string::npos);
}

TEST(SlurmScript, QuotingForTheShellAndForSbatch) {
  using stream::host::sbatch_quote;
  using stream::host::shell_quote;
  EXPECT_EQ(shell_quote("/data/run-1/grid.yaml"), "/data/run-1/grid.yaml");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a b'c"), "'a b'\\''c'");  // close, escaped quote, reopen
  EXPECT_EQ(shell_quote("$HOME"), "'$HOME'");
  EXPECT_EQ(sbatch_quote("cpu"), "cpu");
  EXPECT_EQ(sbatch_quote("a b'c\"d\\e#f"), "\"a b'c\\\"d\\\\e#f\"");  // in "...": only " and \ escaped
  EXPECT_THROW((void)sbatch_quote("a\nb"), stream::Error);
  auto job = known_job();
  job.out = "/scratch/new\nline";
  EXPECT_THROW((void)stream::host::shard_script(job), stream::Error);
  // sbatch's reader keeps a quoted blank and '#', and takes \" for "; Slurm reads %% as a
  // literal % in a log path, where %a is the task index.
  job.out = "/tmp/a b'c\"d%e";
  const auto text = stream::host::shard_script(job);
  EXPECT_NE(text.find("#SBATCH --output=\"/tmp/a b'c\\\"d%%e/logs/shard-%a.out\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("out='/tmp/a b'\\''c\"d%e'\n"), std::string::npos) << text;
}

// bash is the judge of the shell quoting: the scripts, run with a `stream` that prints its
// arguments, from a folder whose name holds a blank, both quotes and a '$', pass exactly the
// paths they were given.
TEST(SlurmScript, BashPassesThePathsExactly) {
  const auto dir = awkward_fixture("bash");
  SlurmArrayJob job;
  job.stream = dir / "stream";
  job.sweep_file = dir / "sweep.yaml";
  job.out = dir / "out";
  job.tasks = 3;
  write_echo_stream(job.stream);
  write_executable(dir / "shards.sbatch", stream::host::shard_script(job));
  write_executable(dir / "merge.sbatch", stream::host::merge_script(job));
  const auto q = stream::host::shell_quote((dir / "shards.sbatch").string());
  const auto shard = run_command("SLURM_ARRAY_TASK_ID=2 bash " + q + " 2>&1");
  ASSERT_EQ(shard.code, 0) << shard.out;
  const auto out = job.out.string();
  EXPECT_EQ(lines(shard.out), (std::vector<std::string>{"sweep", job.sweep_file.string(), "--shard", "2/3", "--out",
                                                        out + "/shard-2", "--jobs", "1"}));
  const auto merge = run_command("bash " + stream::host::shell_quote((dir / "merge.sbatch").string()) + " 2>&1");
  ASSERT_EQ(merge.code, 0) << merge.out;
  EXPECT_EQ(lines(merge.out), (std::vector<std::string>{"sweep", "merge", out + "/shard-0", out + "/shard-1",
                                                        out + "/shard-2", "--out", out}));
}

// The dry run writes both scripts and prints the two sbatch commands with the paths quoted; the
// same command gives the same bytes. The sweep has 4 points: --array-size 2 gives tasks 0-1.
TEST(SweepSubmitCli, DryRunWritesTheScriptsAndPrintsTheCommands) {
  const auto dir = awkward_fixture("dry");
  const auto q = [](const fs::path& p) { return stream::host::shell_quote(p.string()); };
  const auto cmd = "sweep submit " + q(dir / "sweep.yaml") + " --slurm --out " + q(dir / "out") + " --array-size 2 --dry-run";
  const auto r = stream::test::run_stream(cmd);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto shards = dir / "out" / "shards.sbatch", merge = dir / "out" / "merge.sbatch";
  EXPECT_NE(r.out.find("  sbatch --parsable " + q(shards) + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  sbatch --parsable --dependency=afterok:ARRAY_JOB_ID " + q(merge) + "\n"), std::string::npos) << r.out;
  const auto text = read(shards);
  EXPECT_NE(text.find("#SBATCH --array=0-1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("--shard \"$SLURM_ARRAY_TASK_ID/2\""), std::string::npos) << text;
  // The executable and the sweep file by absolute path, so the tasks run from any directory.
  EXPECT_NE(text.find("exec " + q(fs::canonical(kStream)) + " sweep " + q(dir / "sweep.yaml") + " "), std::string::npos) << text;
  EXPECT_TRUE(fs::is_directory(dir / "out" / "logs"));
  const auto merge_text = read(merge);
  ASSERT_EQ(stream::test::run_stream(cmd).code, 0);
  EXPECT_EQ(read(shards), text);
  EXPECT_EQ(read(merge), merge_text);
  // More tasks than points: one per point (4), since an empty shard cannot be merged.
  ASSERT_EQ(stream::test::run_stream("sweep submit " + q(dir / "sweep.yaml") + " --slurm --out " + q(dir / "out") +
                                     " --array-size 10 --dry-run")
                .code,
            0);
  EXPECT_NE(read(shards).find("#SBATCH --array=0-3\n"), std::string::npos);
  // A sample of 3 of the 4 points: 3 tasks at most.
  std::ofstream(dir / "sample.yaml") << kFourPoints << "sample: {count: 3, seed: 1}\n";
  ASSERT_EQ(stream::test::run_stream("sweep submit " + q(dir / "sample.yaml") + " --slurm --out " + q(dir / "out") +
                                     " --array-size 10 --dry-run")
                .code,
            0);
  EXPECT_NE(read(shards).find("#SBATCH --array=0-2\n"), std::string::npos);
}

// What the jobs would do, done by hand: bash runs each task's script with its index, then the
// merge script; the merged rows are the unsharded run's (wall times aside).
TEST(SweepSubmitCli, TheScriptsRunByHandGiveTheUnshardedResults) {
  const auto dir = awkward_fixture("by-hand");
  const auto q = [](const fs::path& p) { return stream::host::shell_quote(p.string()); };
  ASSERT_EQ(stream::test::run_stream("sweep " + q(dir / "sweep.yaml") + " --out " + q(dir / "local")).code, 0);
  ASSERT_EQ(stream::test::run_stream("sweep submit " + q(dir / "sweep.yaml") + " --slurm --out " + q(dir / "out") +
                                     " --array-size 3 --dry-run")
                .code,
            0);
  for (int i = 0; i < 3; ++i) {
    const auto r = run_command("SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " bash " + q(dir / "out" / "shards.sbatch") + " 2>&1");
    ASSERT_EQ(r.code, 0) << r.out;
  }
  const auto m = run_command("bash " + q(dir / "out" / "merge.sbatch") + " 2>&1");
  ASSERT_EQ(m.code, 0) << m.out;
  const auto local = rows(dir / "local" / "results.jsonl");
  ASSERT_EQ(local.size(), 4u);
  EXPECT_EQ(local[0]["latency"], 14344);  // the reference's golden, tpu_like_quad_core
  EXPECT_EQ(rows(dir / "out" / "results.jsonl"), local);
  // Shard I of 3 holds points I, I+3, ... of 0..3: shard 0 has points 0 and 3, shard 1 point 1.
  EXPECT_EQ(rows(dir / "out" / "shard-0" / "results.jsonl").size(), 2u);
  EXPECT_EQ(rows(dir / "out" / "shard-1" / "results.jsonl").size(), 1u);
}

namespace {

// `stream sweep submit` with PATH starting at `bin` (where a stand-in sbatch may be).
stream::test::CliResult submit_with_path(const fs::path& bin, const fs::path& dir, const std::string& extra = "") {
  const auto q = [](const fs::path& p) { return stream::host::shell_quote(p.string()); };
  return run_command("PATH=" + q(bin) + ":\"$PATH\" " + q(kStream) + " sweep submit " + q(dir / "sweep.yaml") +
                     " --slurm --out " + q(dir / "out") + " --array-size 2" + extra + " 2>&1");
}

// An sbatch that appends its arguments to `calls` beside it and prints job ids 4242, 4243, ...
// as `--parsable` does ("ID;CLUSTER" on a multi-cluster setup).
fs::path fake_sbatch(const fs::path& bin) {
  fs::create_directories(bin);
  write_executable(bin / "sbatch",
                   "#!/bin/bash\n"
                   "calls=\"$(dirname \"$0\")/calls\"\n"
                   "printf '%s|' \"$@\" >> \"$calls\"; echo >> \"$calls\"\n"
                   "echo \"$((4241 + $(wc -l < \"$calls\")));cluster1\"\n");
  return bin;
}

}  // namespace

// The array first, then the merge job with --dependency=afterok:<the array's id>; both ids and
// where the results appear are printed.
TEST(SweepSubmitCli, SubmitsTheArrayThenTheMergeAfterIt) {
  const auto dir = awkward_fixture("submit");
  const auto bin = fake_sbatch(dir.parent_path() / "bin");
  const auto r = submit_with_path(bin, dir, " --partition 'big one' --time 10");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto out = (dir / "out").string();
  EXPECT_EQ(lines(read(bin / "calls")),
            (std::vector<std::string>{"--parsable|" + out + "/shards.sbatch|",
                                      "--parsable|--dependency=afterok:4242|" + out + "/merge.sbatch|"}));
  EXPECT_NE(r.out.find("array job 4242:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("merge job 4243, after every task of 4242 succeeded"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("results will appear in " + out + " "), std::string::npos) << r.out;
  const auto text = read(dir / "out" / "shards.sbatch");
  EXPECT_NE(text.find("#SBATCH --partition=\"big one\"\n#SBATCH --time=10\n"), std::string::npos) << text;
}

TEST(SweepSubmitCli, BadUseIsExit2WithTheReason) {
  const auto dir = awkward_fixture("bad");
  const auto q = [](const fs::path& p) { return stream::host::shell_quote(p.string()); };
  const auto base = "sweep submit " + q(dir / "sweep.yaml") + " --out " + q(dir / "out");
  auto r = stream::test::run_stream(base + " --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("give --slurm"), std::string::npos) << r.out;
  r = stream::test::run_stream(base + " --slurm --array-size 0 --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--array-size must be at least 1, got 0"), std::string::npos) << r.out;
  r = stream::test::run_stream(base + " --slurm --jobs 0 --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--jobs must be at least 1"), std::string::npos) << r.out;
  // A bad sweep file is reported before anything is written or submitted.
  std::ofstream(dir / "broken.yaml") << "axes:\n  hardware: tpu_like_quad_core.yaml\n";
  r = stream::test::run_stream("sweep submit " + q(dir / "broken.yaml") + " --slurm --out " + q(dir / "out2"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("broken.yaml:2:"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "out2"));
  // No sbatch on PATH (an empty folder is all of PATH).
  const auto empty = dir.parent_path() / "empty-bin";
  fs::create_directories(empty);
  r = run_command("PATH=" + q(empty) + " " + q(kStream) + " " + base + " --slurm 2>&1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("cannot run sbatch"), std::string::npos) << r.out;
  // sbatch refuses: its message is passed on.
  const auto failing = dir.parent_path() / "failing-bin";
  fs::create_directories(failing);
  write_executable(failing / "sbatch",
                   "#!/bin/bash\necho 'sbatch: error: Batch job submission failed: Invalid partition name specified' >&2\n"
                   "exit 1\n");
  r = submit_with_path(failing, dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("sbatch failed (exit 1): sbatch: error: Batch job submission failed: Invalid partition name specified"),
            std::string::npos)
      << r.out;
}
