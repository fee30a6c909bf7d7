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
    EXPECT_NE(rerun.out.find("5000 points, 5000 already in"), std::string::npos) << rerun.out;
    EXPECT_EQ(read(out / "results.jsonl"), rows);
    EXPECT_FALSE(has_partial_file(out));  // the killed run's temporary files are gone
  }
}
