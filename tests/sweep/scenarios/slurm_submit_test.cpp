// `stream sweep submit --slurm` without a Slurm: the dry run, the scripts run by hand, the
// submission through a stand-in sbatch that records its arguments, and the errors (exit 2). The
// scripts' text is tests/host/slurm_script_test.cpp's; tests/slurm/run_slurm_test.sh submits to a
// real Slurm.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "slurm_script.hpp"
#include "slurm_fixtures.hpp"
#include "stream_cli.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using stream::test::read;
using stream::test::run_command;

namespace {

using stream::test::awkward_fixture;
using stream::test::kFourPoints;
using stream::test::lines;
using stream::test::write_executable;

const std::string kStream = std::string(STREAM_BUILD_DIR) + "/bin/stream";


}  // namespace

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
  const auto local = stream::test::sweep_rows(dir / "local" / "results.jsonl");
  ASSERT_EQ(local.size(), 4u);
  EXPECT_EQ(local[0]["latency"], 14344);  // the reference's golden, tpu_like_quad_core
  EXPECT_EQ(stream::test::sweep_rows(dir / "out" / "results.jsonl"), local);
  // Shard I of 3 holds points I, I+3, ... of 0..3: shard 0 has points 0 and 3, shard 1 point 1.
  EXPECT_EQ(stream::test::sweep_rows(dir / "out" / "shard-0" / "results.jsonl").size(), 2u);
  EXPECT_EQ(stream::test::sweep_rows(dir / "out" / "shard-1" / "results.jsonl").size(), 1u);
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
