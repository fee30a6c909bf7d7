// host/slurm_script.hpp without a Slurm: the scripts' text for a known job (each line derived by
// hand below) and their quoting, checked by letting bash run them. The sweep's scenario
// tests/sweep/scenarios/slurm_submit_test.cpp drives `stream sweep submit --slurm`;
// tests/slurm/run_slurm_test.sh submits to a real Slurm.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <stream/error.hpp>

#include "slurm_script.hpp"
#include "slurm_fixtures.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::host::SlurmArrayJob;
using stream::test::run_command;

namespace {

using stream::test::awkward_fixture;
using stream::test::lines;
using stream::test::write_executable;

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

// A `stream` that prints its arguments, one a line: what bash made of the script's command.
void write_echo_stream(const fs::path& p) { write_executable(p, "#!/bin/bash\nprintf '%s\\n' \"$@\"\n"); }


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
