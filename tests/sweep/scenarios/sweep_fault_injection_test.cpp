// The fault-injection test of issue 35: a 2,000-point sweep (the 2-conv on the quad core, its
// bus's bandwidth swept: a few ms a point) on two workers, killed with SIGKILL at 20 moments drawn
// from a fixed seed and resumed each time. After every kill no row that was on disk is lost, no
// point has two rows, and each final file is absent or whole (equal to an uninterrupted sweep's,
// wall times aside); at the end every row is there once and equal to the uninterrupted sweep's.
// It runs as the ctest `sweep.fault_injection` (label `faults`, tests/sweep/CMakeLists.txt), which
// sets STREAM_SWEEP_FAULT_TEST; the copy gtest discovery lists skips, so that it runs once.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "stream_cli.hpp"
#include "sweep_files.hpp"
#include "sweep_rows.hpp"

namespace fs = std::filesystem;
using stream::test::read;

namespace {

constexpr int kInjectedPoints = 2000;
constexpr int kKills = 20;

fs::path injection_fixture() {
  const fs::path inputs(STREAM_INPUTS_DIR);
  const auto dir = stream::test::fresh_scratch_dir("sweep_faults", "injection");
  fs::copy_file(inputs / "hardware" / "tpu_like_quad_core.yaml", dir / "tpu_like_quad_core.yaml");
  fs::copy(inputs / "hardware" / "cores", dir / "cores");
  fs::copy_file(inputs / "workload" / "2conv_1_8_32_32_16_32_3.onnx", dir / "2conv.onnx");
  std::string text = "axes:\n  hardware: [tpu_like_quad_core.yaml]\n  workload: [2conv.onnx]\n"
                     "  hardware/core_connectivity/12/bandwidth: [";
  for (int k = 0; k < kInjectedPoints; ++k) text += (k ? ", " : "") + std::to_string(16 + k);
  std::ofstream(dir / "sweep.yaml") << text << "]\n";
  return dir;
}

// The rows by id; a second row for one id fails the test.
std::map<std::string, nlohmann::json> rows_by_id(const fs::path& jsonl, const std::string& when) {
  std::map<std::string, nlohmann::json> by_id;
  for (auto& row : stream::test::surviving_rows(jsonl))
    EXPECT_TRUE(by_id.emplace(row["id"].get<std::string>(), row).second) << "two rows for " << row["id"] << " " << when;
  return by_id;
}

// What an uninterrupted sweep wrote, to compare a killed one's files with.
struct Reference {
  std::map<std::string, nlohmann::json> rows;
  std::string csv, pareto, report;
};

// Each final file of `out` is absent or whole: results.csv and pareto.csv the reference's (their
// last column, wall_s, aside), report.html (which has no wall_s) the reference's byte for byte.
void expect_absent_or_whole(const fs::path& out, const Reference& ref, const std::string& when) {
  if (fs::exists(out / "results.csv")) {
    EXPECT_EQ(stream::test::without_last_column(read(out / "results.csv")), ref.csv) << "results.csv " << when;
  }
  if (fs::exists(out / "pareto.csv")) {
    EXPECT_EQ(stream::test::without_last_column(read(out / "pareto.csv")), ref.pareto) << "pareto.csv " << when;
  }
  if (fs::exists(out / "report.html")) {
    EXPECT_EQ(read(out / "report.html"), ref.report) << "report.html " << when;
  }
}

// A temporary file of process `pid` in `out` (.NAME.partial-HOST-PID-N): it is writing its final files.
bool writes_final_files(const fs::path& out, pid_t pid) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out, ec))
    if (e.path().filename().string().find("-" + std::to_string(pid) + "-") != std::string::npos) return true;
  return false;
}

// The files of `out` as names, sizes and modification times (the lock file and sweep.json aside,
// which every run rewrites as it starts).
std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> files_state(const fs::path& out) {
  std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> state;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out, ec)) {
    const auto name = e.path().filename().string();
    if (name == ".stream-sweep.lock" || name.find("sweep.json") != std::string::npos) continue;
    std::error_code gone;  // a temporary file may be renamed between the listing and the look
    state[e.path().filename().string()] = {e.file_size(gone), e.last_write_time(gone)};
  }
  return state;
}

// Until the run `pid` (with every row already on disk) starts to write its final files, whatever
// way it writes them (a file changes or a new one appears in `out`), or has ended (60 s at most).
void wait_for_final_files(const fs::path& out, pid_t pid, const std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>>& before) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (files_state(out) == before && std::chrono::steady_clock::now() < deadline) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

TEST(SweepFaultInjection, KilledTwentyTimesAndResumedEqualsAnUninterruptedSweep) {
  if (!std::getenv("STREAM_SWEEP_FAULT_TEST")) GTEST_SKIP() << "runs as the ctest sweep.fault_injection (label faults)";
  const auto dir = injection_fixture();
  const auto sweep_args = [&](const fs::path& out) {
    return std::vector<std::string>{"sweep", (dir / "sweep.yaml").string(), "--out", out.string(), "--jobs", "2"};
  };
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(stream::test::wait_for(stream::test::spawn_stream(sweep_args(dir / "fresh"), dir / "fresh.txt")), 0)
      << read(dir / "fresh.txt");
  const double uninterrupted_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Reference ref{rows_by_id(dir / "fresh" / "results.jsonl", "uninterrupted"),
                stream::test::without_last_column(read(dir / "fresh" / "results.csv")),
                stream::test::without_last_column(read(dir / "fresh" / "pareto.csv")), read(dir / "fresh" / "report.html")};
  ASSERT_EQ(ref.rows.size(), static_cast<std::size_t>(kInjectedPoints));
  // A rerun of the finished sweep: its start-up, then its final files (nothing to evaluate).
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_EQ(stream::test::wait_for(stream::test::spawn_stream(sweep_args(dir / "fresh"), dir / "fresh.txt")), 0);
  const double rerun_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();

  // Each kill comes at a moment drawn up to 1.1 times a rerun's time plus the time the points not
  // yet done would take, at most a quarter of the sweep's: the early kills land among the points,
  // later ones, as fewer remain, in the start-up and the last points. Once every row is on disk,
  // the kill comes up to 15 ms after the run starts to change the files in DIR (more often early
  // than late), while it writes its final files: the few ms of a whole run that a moment drawn in
  // time would rarely hit.
  // mt19937 is the same everywhere; its 32-bit draws are scaled by hand, since the standard
  // distributions are not.
  std::mt19937 draw(35);
  std::size_t on_disk = 0;
  int finished_before_kill = 0, killed_writing_final_files = 0;
  const auto out = dir / "out";
  for (int k = 0; k < kKills; ++k) {
    const double remaining = static_cast<double>(kInjectedPoints - std::min<std::size_t>(on_disk, kInjectedPoints));
    const double u = static_cast<double>(draw()) / 4294967296.0;
    const double at_s = remaining == 0 ? 0.015 * u * u  // most in the first ms, where results.jsonl is written
                                       : u * (1.1 * rerun_s + uninterrupted_s * std::min(remaining / kInjectedPoints, 0.25));
    const auto state = files_state(out);
    const pid_t pid = stream::test::spawn_stream(sweep_args(out), dir / "killed.txt");
    ASSERT_GT(pid, 0);
    if (remaining == 0) wait_for_final_files(out, pid, state);
    std::this_thread::sleep_for(std::chrono::duration<double>(at_s));
    finished_before_kill += stream::test::kill_and_wait(pid) == 0 ? 1 : 0;
    const std::string when = "after kill " + std::to_string(k) + " at " + std::to_string(at_s) + " s";
    const auto rows = rows_by_id(out / "results.jsonl", when);
    EXPECT_GE(rows.size(), on_disk) << "rows lost " << when;
    for (const auto& [id, row] : rows) EXPECT_EQ(row, ref.rows.at(id)) << when;
    on_disk = rows.size();
    expect_absent_or_whole(out, ref, when);
    killed_writing_final_files += writes_final_files(out, pid) ? 1 : 0;
  }
  const auto last = stream::test::spawn_stream(sweep_args(out), dir / "last.txt");
  ASSERT_EQ(stream::test::wait_for(last), 0) << read(dir / "last.txt");
  EXPECT_EQ(rows_by_id(out / "results.jsonl", "at the end"), ref.rows);
  expect_absent_or_whole(out, ref, "at the end");
  EXPECT_TRUE(fs::exists(out / "report.html"));
  const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("uninterrupted sweep %.1f s, a rerun %.2f s; %d kills (%d in the middle of a final file, %d runs had finished "
              "first); %zu of %d rows on disk before the last resume; %.1f s in all\n",
              uninterrupted_s, rerun_s, kKills, killed_writing_final_files, finished_before_kill, on_disk, kInjectedPoints, total_s);
}
