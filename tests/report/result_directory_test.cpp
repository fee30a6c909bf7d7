// `stream run`'s result directory: written whole or not at all (staged beside the target and
// renamed into place), checked writes, an --out that cannot be used found before the pipeline
// runs, --experiment-id as one path component, default ids that tell --param values apart, and
// symbolic links in the output never followed, and partial results of interrupted runs removed.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <stream/report/result_directory.hpp>

#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::test::read;
using stream::test::run_stream;

namespace {

const std::string kTpu = std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml";

fs::path scratch(const std::string& name) { return stream::test::fresh_scratch_dir("report", name); }

// These cases need their own command lines (a mount namespace, stdout to /dev/full), not run_stream's.
using stream::test::run_command;

const std::string kStream = "'" + std::string(STREAM_BUILD_DIR) + "/bin/stream'";

std::string sh_quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// The entries of a directory, sorted (hidden staging directories included).
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Whether a tmpfs can be mounted at `mount` in a private user and mount namespace (which needs
// no privilege where the kernel allows it).
bool tmpfs_available(const fs::path& mount) {
  const std::string probe = "unshare -rm sh -c \"mount -t tmpfs tmpfs '" + mount.string() + "'\" 2>/dev/null";
  return std::system(probe.c_str()) == 0;
}

// A shell step that runs `stream <args>` and prints "exit=N" after its output.
std::string stream_step(const std::string& args) { return "{ " + kStream + " " + args + " 2>&1; echo \"exit=$?\"; }"; }

// Fills the file system at the working directory until `free_kib` KiB are left (all when 0).
std::string fill_step(int total_kib, int free_kib) {
  const std::string count = free_kib == 0 ? "" : " count=" + std::to_string((total_kib - free_kib) / 4);
  return "{ dd if=/dev/zero of=filler bs=4k" + count + " 2>/dev/null; true; }";
}

// Mounts a tmpfs of `kib` KiB at `mount` in a private mount namespace, runs the shell `steps`
// in it, then lists what is left and the result's summary (the tmpfs vanishes with the namespace).
stream::test::CliResult run_on_tmpfs(const fs::path& mount, int kib, const std::vector<std::string>& steps,
                                     bool read_only = false) {
  std::string script = "mount -t tmpfs -o " + std::string(read_only ? "ro," : "") + "size=" + std::to_string(kib) +
                       "k tmpfs " + sh_quoted(mount) + " && cd " + sh_quoted(mount);
  for (const auto& step : steps) script += " && " + step;
  script += " && echo listing: && find . | sort && cat exp/summary.yaml 2>/dev/null; true";
  std::string escaped;
  for (char c : script) escaped += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return run_command("unshare -rm sh -c '" + escaped + "' 2>&1");
}

}  // namespace

// A 64 KiB file system with 8 KiB left: the result files (at least 11, one 4 KiB page each at
// the least) cannot all fit. Before: exit 0, "results in ...", the files past the first two
// empty. Now: exit 1 naming the file that could not be written, and nothing left of the run.
TEST(ResultDirectory, FullDiskIsExit1NamingTheFileAndLeavesNothing) {
  const auto mount = scratch("tmpfs_full");
  if (!tmpfs_available(mount)) GTEST_SKIP() << "no user namespace with tmpfs in this sandbox";
  const auto r = run_on_tmpfs(mount, 64, {fill_step(64, 8), stream_step("run --out " + sh_quoted(mount) + " --experiment-id exp")});
  EXPECT_NE(r.out.find("exit=1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("No space left on device"), std::string::npos) << r.out;
  // The file is named where it was to go (not in the staging directory, which is gone).
  EXPECT_NE(r.out.find("error: " + mount.string() + "/exp/"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("results in"), std::string::npos) << r.out;
  const auto listing = r.out.substr(r.out.find("listing:"));
  EXPECT_EQ(listing, "listing:\n.\n./filler\n") << "the failed run must leave nothing";
}

// A previous complete result, then the disk filled and a second run: the second fails with exit
// 1 and the first result is still there, whole. Before: the second run truncated the first
// result's files in place and reported success.
TEST(ResultDirectory, FailedRunKeepsThePreviousCompleteResult) {
  const auto mount = scratch("tmpfs_previous");
  if (!tmpfs_available(mount)) GTEST_SKIP() << "no user namespace with tmpfs in this sandbox";
  const auto run = stream_step("run --out " + sh_quoted(mount) + " --experiment-id exp");
  const auto r = run_on_tmpfs(mount, 1024, {run, fill_step(1024, 0), run});
  const auto first = r.out.find("exit=0");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exit=1", first), std::string::npos) << r.out;
  const auto listing = r.out.substr(r.out.find("listing:"));
  EXPECT_NE(listing.find("./exp/group_0/memory_accesses.yaml\n"), std::string::npos) << listing;
  EXPECT_EQ(listing.find(".partial-"), std::string::npos) << listing;
  EXPECT_NE(listing.find("total_latency: 14344\n"), std::string::npos) << listing;
}

// Two groups (per-layer cuts of the 2-conv model), then one group under the same id: the new
// result must not sit beside the earlier run's group_1. Before: group_1 stayed.
TEST(ResultDirectory, RerunWithFewerGroupsLeavesNoStaleGroup) {
  const auto out = scratch("stale_groups");
  const std::string base = "run --out " + sh_quoted(out) + " --experiment-id exp";
  ASSERT_EQ(run_stream(base + " --fusion-cut-points per-layer").code, 0);
  ASSERT_TRUE(fs::exists(out / "exp" / "group_1"));
  const auto r = run_stream(base);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(entries(out / "exp"),
            (std::vector<std::string>{"group_0", "report.html", "summary.json", "summary.yaml", "timings.json", "timings.yaml"}));
  EXPECT_EQ(entries(out), std::vector<std::string>{"exp"}) << "no staging or previous directory left beside";
}

// A run that fails in the pipeline (an unknown cut point) after the staging directory exists:
// the previous result is untouched and the staging directory is gone.
TEST(ResultDirectory, PipelineErrorKeepsThePreviousResult) {
  const auto out = scratch("pipeline_error");
  const std::string base = "run --out " + sh_quoted(out) + " --experiment-id exp";
  ASSERT_EQ(run_stream(base).code, 0);
  const auto before = read(out / "exp" / "summary.yaml");
  const auto r = run_stream(base + " --fusion-cut-points NoSuchNode");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(read(out / "exp" / "summary.yaml"), before);
  EXPECT_EQ(entries(out), std::vector<std::string>{"exp"});
}

// /dev/full as the output: before, the whole pipeline ran and then failed with "internal error:
// filesystem error"; now it fails first, naming the path, without solving anything.
TEST(ResultDirectory, UnusableOutFailsBeforeThePipeline) {
  const auto dir = scratch("unusable_out");
  const auto file = dir / "a_file";
  stream::test::run_stream("--version > " + sh_quoted(file));
  for (const fs::path& out : {fs::path("/dev/full"), file / "sub"}) {
    const auto r = run_stream("run --out " + sh_quoted(out) + " --experiment-id exp");
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("error: " + out.string()), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("solving the allocation"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("internal error"), std::string::npos) << r.out;
  }
}

// A read-only file system (which even root cannot write): the output directory, or the staging
// directory in an existing one, cannot be created. Before: the pipeline ran, then "internal
// error: filesystem error". Now: exit 1 naming the path, before anything is solved.
TEST(ResultDirectory, ReadOnlyOutFailsBeforeThePipeline) {
  const auto mount = scratch("tmpfs_read_only");
  if (!tmpfs_available(mount)) GTEST_SKIP() << "no user namespace with tmpfs in this sandbox";
  const auto r = run_on_tmpfs(mount, 64,
                              {stream_step("run --out " + sh_quoted(mount / "sub") + " --experiment-id exp"),
                               stream_step("run --out " + sh_quoted(mount) + " --experiment-id exp")},
                              true);
  EXPECT_NE(r.out.find("error: " + (mount / "sub").string() + ": cannot create the output directory: Read-only"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error: " + mount.string() + ": cannot create a directory for the results: Read-only"),
            std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("exit=0"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("solving the allocation"), std::string::npos) << r.out;
}

// Each of these would put the results outside <out>/ or nowhere: exit 2 with the reason, before
// any work, and nothing written. Before: "../x" wrote beside <out>, "" and "." wrote into <out>.
TEST(ResultDirectory, ExperimentIdMustBeOnePathComponent) {
  const auto dir = scratch("experiment_id");
  const auto out = dir / "out";
  const std::vector<std::string> ids = {"../x", "/tmp/abs", ".", "..", "", "a/b", "a\tb", "a\x01" "b"};
  for (const auto& id : ids) {
    const auto r = run_stream("run --out " + sh_quoted(out) + " --experiment-id " + sh_quoted(id));
    EXPECT_EQ(r.code, 2) << id << "\n" << r.out;
    EXPECT_NE(r.out.find("--experiment-id"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("one directory name"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("solving the allocation"), std::string::npos) << r.out;
  }
  EXPECT_EQ(entries(dir), std::vector<std::string>{}) << "nothing may be created";
}

// Block parameters and sizes change the workload, so they are part of the default id: sorted by
// key, so their order on the command line does not matter. Before: both runs wrote
// tpu_like_quad_core-rmsnorm-constraint_optimization, the second over the first.
TEST(ResultDirectory, DefaultIdIncludesBlockParametersSorted) {
  const auto out = scratch("default_id");
  const std::string base = "run --out " + sh_quoted(out) + " --block rmsnorm";
  ASSERT_EQ(run_stream(base + " --param tokens=8 --param d_model=32").code, 0);
  ASSERT_EQ(run_stream(base + " --param d_model=32 --param tokens=16").code, 0);
  EXPECT_EQ(entries(out), (std::vector<std::string>{"tpu_like_quad_core-rmsnorm-d_model=32-tokens=16-constraint_optimization",
                                                    "tpu_like_quad_core-rmsnorm-d_model=32-tokens=8-constraint_optimization"}));
}

// A symbolic link at <out>/<id> (to a directory the user keeps) is replaced as a link, never
// written through; so is a link planted inside a previous result. Before: both were followed and
// the results landed in the linked directories.
TEST(ResultDirectory, SymbolicLinksInTheOutputAreNotFollowed) {
  const auto dir = scratch("symlinks");
  const auto out = dir / "out";
  const auto victim = dir / "victim";
  fs::create_directories(out);
  fs::create_directories(victim);
  stream::test::run_stream("--version > " + sh_quoted(victim / "keep"));
  fs::create_directory_symlink(victim, out / "exp");
  const std::string args = "run --out " + sh_quoted(out) + " --experiment-id exp";
  ASSERT_EQ(run_stream(args).code, 0);
  EXPECT_FALSE(fs::is_symlink(out / "exp"));
  EXPECT_TRUE(fs::exists(out / "exp" / "summary.yaml"));
  EXPECT_EQ(entries(victim), std::vector<std::string>{"keep"});

  fs::remove_all(out / "exp" / "group_0");
  fs::create_directory_symlink(victim, out / "exp" / "group_0");
  ASSERT_EQ(run_stream(args).code, 0);
  EXPECT_FALSE(fs::is_symlink(out / "exp" / "group_0"));
  EXPECT_TRUE(fs::exists(out / "exp" / "group_0" / "mapping.yaml"));
  EXPECT_EQ(entries(victim), std::vector<std::string>{"keep"});
}

// Output to stdout and to a file the user names is checked too: /dev/full is exit 1 naming it.
// Before: both exited 0 with nothing written.
TEST(ResultDirectory, FullStdoutAndFullWriteMappingAreErrors) {
  const auto p = run_command(kStream +
                                           " parse --block rmsnorm --format json 2>&1 >/dev/full");
  EXPECT_EQ(p.code, 1) << p.out;
  EXPECT_NE(p.out.find("standard output"), std::string::npos) << p.out;
  const auto v = run_stream("validate -q --hardware " + kTpu + " --workload " + std::string(STREAM_INPUTS_DIR) +
                            "/workload/2conv_1_8_32_32_16_32_3.onnx --write-mapping /dev/full");
  EXPECT_EQ(v.code, 1) << v.out;
  EXPECT_NE(v.out.find("/dev/full"), std::string::npos) << v.out;
}

namespace {

// Starts `stream args...` as a child (no shell: the signal must reach stream itself).
pid_t spawn_stream(const std::vector<std::string>& args) {
  std::vector<std::string> argv_store{std::string(STREAM_BUILD_DIR) + "/bin/stream"};
  argv_store.insert(argv_store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

bool has_staging(const fs::path& dir) {
  for (const auto& name : entries(dir))
    if (name.find(".partial-") != std::string::npos) return true;
  return false;
}

// The staging-name prefix StagedResultDirectory gives `exp` on this host.
std::string staging_prefix_of_exp() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return ".exp.partial-" + stream::report::as_path_component(host).substr(0, 40) + "-";
}

}  // namespace

// Ctrl-C or a scheduler's SIGTERM while the pipeline runs (a 64-layer decoder takes seconds):
// the process still ends by the signal (the shell's 128 + N), the staging directory is removed,
// and the previous result is untouched. Before: the hidden staging directory stayed.
TEST(ResultDirectory, InterruptedRunRemovesItsPartialResult) {
  for (const int sig : {SIGINT, SIGTERM}) {
    const auto out = scratch("interrupted_" + std::to_string(sig));
    fs::create_directories(out / "exp");
    { std::ofstream(out / "exp" / "previous") << "kept"; }
    const pid_t pid = spawn_stream(
        {"run", "--block", "decoder_stack", "--param", "layers=64", "--out", out.string(), "--experiment-id", "exp"});
    ASSERT_GT(pid, 0);
    for (int i = 0; i < 1000 && !has_staging(out); ++i) ::usleep(10'000);
    ASSERT_TRUE(has_staging(out)) << "no staging directory appeared within 10 s";
    ::kill(pid, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before the signal, or exited " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(entries(out), std::vector<std::string>{"exp"}) << "signal " << sig;
    EXPECT_EQ(entries(out / "exp"), std::vector<std::string>{"previous"});
  }
}

// A run killed outright (SIGKILL: no handler runs) leaves its staging directory. The next run for
// the same target removes it, since its process is gone; one of a live process (this test's)
// stays. Before: staging directories piled up beside the results.
TEST(ResultDirectory, NextRunRemovesTheStagingOfAKilledRun) {
  const auto out = scratch("abandoned");
  const auto prefix = staging_prefix_of_exp();
  // 2^22 + 1 is above Linux's largest pid_max: no process can have it.
  const auto dead = out / (prefix + "4194305-abcdef");
  const auto live = out / (prefix + std::to_string(::getpid()) + "-abcdef");
  const auto other = out / ".other.partial-x-4194305-abcdef";  // another id's: not ours to remove
  for (const auto& d : {dead, live, other}) {
    fs::create_directories(d / "group_0");
    std::ofstream(d / "group_0" / "half_written.yaml") << "a:";
  }
  const auto r = run_stream("run --out " + sh_quoted(out) + " --experiment-id exp");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_TRUE(fs::exists(out / "exp" / "summary.yaml"));
}
