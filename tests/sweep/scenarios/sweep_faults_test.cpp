// `stream sweep` under faults, as processes with real kills (issue 35): a kill while a finished
// sweep rewrites its files loses no row and leaves no cut file; a point the machine failed (out of
// memory) gets no row and is retried on resume; a repeated point id with --keep-points is written
// by one worker; two sweeps into one --out: the second says who holds it and exits 2.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "stream_cli.hpp"
#include "sweep_files.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using stream::test::read;
using stream::test::run_stream;

namespace {

const fs::path kFaultInputs(STREAM_INPUTS_DIR);

// A sweep file of `points` points that fail at once (a block parameter on a file workload): the
// rows cost nothing to make, so a test can have thousands of them in a second.
std::string instant_points(int points) {
  std::string text = "axes:\n  hardware: [tpu_like_quad_core.yaml]\n  workload: [2conv.onnx]\n  unused: [";
  for (int k = 0; k < points; ++k) text += (k ? ", " : "") + std::to_string(k);
  return text + "]\n";
}

// A sweep file of `points` points that run (the 2-conv with its bus's bandwidth swept).
std::string bandwidth_points(int points) {
  std::string text = "axes:\n  hardware: [tpu_like_quad_core.yaml]\n  workload: [2conv.onnx]\n"
                     "  hardware/core_connectivity/12/bandwidth: [";
  for (int k = 0; k < points; ++k) text += (k ? ", " : "") + std::to_string(64 + k);
  return text + "]\n";
}

fs::path fault_fixture(const std::string& name, const std::string& sweep_text) {
  const auto dir = stream::test::fresh_scratch_dir("sweep_faults", name);
  fs::copy_file(kFaultInputs / "hardware" / "tpu_like_quad_core.yaml", dir / "tpu_like_quad_core.yaml");
  fs::copy(kFaultInputs / "hardware" / "cores", dir / "cores");
  fs::copy_file(kFaultInputs / "workload" / "2conv_1_8_32_32_16_32_3.onnx", dir / "2conv.onnx");
  std::ofstream(dir / "sweep.yaml") << sweep_text;
  return dir;
}

// A temporary file of a final file (io/atomic_file.hpp): the sweep is writing its final files.
bool has_partial_file(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    for (const char* file : {".results.jsonl.partial-", ".results.csv.partial-", ".pareto.csv.partial-", ".report.html.partial-"})
      if (e.path().filename().string().starts_with(file)) return true;
  return false;
}

}  // namespace

// Issue 35: rerunning a finished sweep rewrote results.jsonl in place, and a kill during the
// rewrite left 0 to 8,163 of 20,000 rows (all then recomputed), or a report cut short beside a
// CSV that looked complete. Each kill here lands while the rerun writes its files (the moment the
// log shrinks, or a temporary file appears), a little later each time.
TEST(SweepFaults, AKillWhileAFinishedSweepRewritesItsFilesLosesNoRow) {
  constexpr int kPoints = 5000;
  const auto dir = fault_fixture("rewrite", instant_points(kPoints));
  const auto out = dir / "out";
  const std::vector<std::string> args{"sweep", (dir / "sweep.yaml").string(), "--out", out.string(), "--jobs", "2"};
  ASSERT_EQ(run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + out.string()).code, 0);
  const auto rows = read(out / "results.jsonl");
  const auto size = fs::file_size(out / "results.jsonl");
  std::map<std::string, std::string> finished;
  for (const char* f : {"results.csv", "pareto.csv", "report.html"}) finished[f] = read(out / f);
  for (int delay_ms : {0, 1, 2, 4, 8, 16}) {
    const pid_t pid = stream::test::spawn_stream(args, dir / "log.txt");
    ASSERT_GT(pid, 0);
    // Until the rewrite starts (or the rerun has ended, a moment missed between two looks).
    std::error_code ec;
    int status = 0;
    bool ended = false;
    while (fs::file_size(out / "results.jsonl", ec) == size && !has_partial_file(out))
      if ((ended = waitpid(pid, &status, WNOHANG) == pid)) break;
      else std::this_thread::sleep_for(std::chrono::microseconds(100));
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    if (!ended) stream::test::kill_and_wait(pid);
    EXPECT_EQ(stream::test::surviving_rows(out / "results.jsonl").size(), static_cast<std::size_t>(kPoints))
        << "killed " << delay_ms << " ms into the rewrite";
    for (const auto& [file, text] : finished) {
      if (fs::exists(out / file)) {
        EXPECT_EQ(read(out / file), text) << file << ", killed " << delay_ms << " ms in";
      }
    }
    // The rerun after the kill recomputes nothing and puts the files back as they were.
    const auto rerun = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + out.string());
    ASSERT_EQ(rerun.code, 0) << rerun.out;
    EXPECT_NE(rerun.out.find("resuming: 5000 of 5000 points already done"), std::string::npos) << rerun.out;
    EXPECT_EQ(read(out / "results.jsonl"), rows);
    EXPECT_FALSE(has_partial_file(out));  // the killed run's temporary files are gone
  }
}

// Out of memory is the machine's failure, not the point's: the point gets no row (the run says
// so and exits 1, the final files are not written) and the next run evaluates it. The block
// `oom_block` (tests/sweep/oom_plugin/) throws std::bad_alloc while STREAM_TEST_OUT_OF_MEMORY is set;
// before, the point was a `failed` row that every resume kept.
TEST(SweepFaults, APointThatRanOutOfMemoryIsRetriedOnResume) {
  const auto dir = fault_fixture("out_of_memory", "axes:\n  workload: [2conv.onnx, \"block:oom_block\"]\n");
  const std::string sweep = "--plugin-dir " + std::string(STREAM_SWEEP_OOM_PLUGIN_DIR) + " sweep " +
                            (dir / "sweep.yaml").string() + " --out " + (dir / "out").string();
  const auto short_of_memory = stream::test::run_command("STREAM_TEST_OUT_OF_MEMORY=1 '" + std::string(STREAM_BUILD_DIR) +
                                                         "/bin/stream' " + sweep + " 2>&1");
  EXPECT_EQ(short_of_memory.code, 1) << short_of_memory.out;
  EXPECT_NE(short_of_memory.out.find("1 of 2 points could not be evaluated for want of memory, disk or I/O"),
            std::string::npos)
      << short_of_memory.out;
  EXPECT_NE(short_of_memory.out.find("(the first, point 1: out of memory"), std::string::npos) << short_of_memory.out;
  const auto kept = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0]["latency"], 14344);
  EXPECT_FALSE(fs::exists(dir / "out" / "results.csv"));
  const auto resumed = run_stream(sweep);
  ASSERT_EQ(resumed.code, 0) << resumed.out;
  EXPECT_NE(resumed.out.find("resuming: 1 of 2 points already done"), std::string::npos) << resumed.out;
  const auto rows = stream::test::sweep_rows(dir / "out" / "results.jsonl");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1]["workload"], "block:oom_block");
  EXPECT_EQ(rows[1]["reason"].get<std::string>().find("bad_alloc"), std::string::npos) << rows[1];
}

// Issue 35: with a point id repeated (the same file listed eight times, and a copy of it eight
// times: an id is the hash of the bytes), --keep-points had two workers write one points/<id>/, and the valid point
// was reported failed ("cannot remove: Directory not empty") or its folder held 43-50 of 73
// files. Each point's folder is written into a staging folder of its own and moved into place
// whole: every row is ok, and the folder holds the files one point's folder holds.
TEST(SweepFaults, ARepeatedPointIdKeepsOneWholeFolder) {
  std::string sixteen = "axes:\n  hardware: [tpu_like_quad_core.yaml";
  for (int k = 1; k < 16; ++k) sixteen += k % 2 ? ", copy.yaml" : ", tpu_like_quad_core.yaml";
  const auto dir = fault_fixture("repeated_id", sixteen + "]\n");
  fs::copy_file(dir / "tpu_like_quad_core.yaml", dir / "copy.yaml");
  std::ofstream(dir / "one.yaml") << "axes:\n  hardware: [tpu_like_quad_core.yaml]\n";
  const auto one = run_stream("sweep " + (dir / "one.yaml").string() + " --out " + (dir / "one").string() + " --keep-points");
  ASSERT_EQ(one.code, 0) << one.out;
  const auto files_of = [](const fs::path& folder) {
    std::set<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(folder)) files.insert(e.path().lexically_relative(folder).string());
    return files;
  };
  const auto id = stream::test::sweep_rows(dir / "one" / "results.jsonl").at(0)["id"].get<std::string>();
  const auto expected = files_of(dir / "one" / "points" / id);
  ASSERT_TRUE(expected.count("report.html") && expected.count("summary.json")) << one.out;
  // The race was a matter of timing (before: 3 of 10 and 4 of 12 runs failed): eight tries.
  for (int attempt = 0; attempt < 8; ++attempt) {
    const auto r = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + (dir / "out").string() +
                              " --keep-points --jobs 2");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("16 points, 0 already in"), std::string::npos) << r.out;
    const auto rows = stream::test::sweep_rows(dir / "out" / "results.jsonl");
    ASSERT_EQ(rows.size(), 16u);
    for (const auto& row : rows) {
      EXPECT_EQ(row["status"], "ok") << row;
      EXPECT_EQ(row["id"], id);
    }
    std::set<std::string> folders;
    for (const auto& e : fs::directory_iterator(dir / "out" / "points")) folders.insert(e.path().filename().string());
    EXPECT_EQ(folders, std::set<std::string>{id}) << "no other folder, no staging left";
    EXPECT_EQ(files_of(dir / "out" / "points" / id), expected);
    fs::remove_all(dir / "out");
  }
}

// Issue 35: two sweeps into one --out at once, and about 5% of pairs one exited 1 with "point N has
// no row". The first holds DIR/.stream-sweep.lock; the second, started while it runs, names it
// (process and host) and exits 2 without touching the files; the first completes every row. A
// merge into the directory is refused alike.
TEST(SweepFaults, ASecondSweepIntoTheSameOutSaysWhoHoldsItAndExits2) {
  const auto dir = fault_fixture("two_at_once", bandwidth_points(200));
  const auto out = dir / "out";
  const pid_t first = stream::test::spawn_stream({"sweep", (dir / "sweep.yaml").string(), "--out", out.string(), "--jobs", "1"},
                                                 dir / "first.txt");
  ASSERT_GT(first, 0);
  const std::string holder = "process " + std::to_string(first) + " on host ";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (read(out / ".stream-sweep.lock").find(holder) == std::string::npos && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const auto second = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + out.string());
  const auto merge = run_stream("sweep merge " + out.string() + " --out " + out.string());
  const int first_code = stream::test::wait_for(first);
  EXPECT_EQ(second.code, 2) << second.out;
  EXPECT_NE(second.out.find("another sweep or merge is writing this directory (" + holder), std::string::npos) << second.out;
  EXPECT_NE(second.out.find(out.string()), std::string::npos) << second.out;
  EXPECT_EQ(merge.code, 2) << merge.out;
  ASSERT_EQ(first_code, 0) << read(dir / "first.txt");
  EXPECT_EQ(stream::test::sweep_rows(out / "results.jsonl").size(), 200u);
  // The lock went with the first process: a sweep now runs (and skips every point).
  const auto after = run_stream("sweep " + (dir / "sweep.yaml").string() + " --out " + out.string());
  EXPECT_EQ(after.code, 0) << after.out;
  EXPECT_NE(after.out.find("resuming: 200 of 200 points already done"), std::string::npos) << after.out;
}
