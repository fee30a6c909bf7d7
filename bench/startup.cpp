// Start-up of the `stream` executable, process and all (fork, exec, dynamic linking, plugin
// discovery and loading): `stream --version`, `stream plugins` and `stream run` on the bundled
// 2-conv default. Wall time per process, the figure a user waits for.
#include <benchmark/benchmark.h>

#include <spawn.h>
#include <sys/wait.h>
#include <fcntl.h>

#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace {

void spawn_stream(benchmark::State& state, std::vector<std::string> args) {
  const std::string exe = std::string(STREAM_BUILD_DIR) + "/bin/stream";
  args.insert(args.begin(), exe);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  for (auto _ : state) {
    pid_t pid = 0;
    if (posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
      state.SkipWithError("cannot start stream");
      break;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("stream failed");
      break;
    }
  }
  posix_spawn_file_actions_destroy(&actions);
}

void BM_StreamVersion(benchmark::State& state) { spawn_stream(state, {"--version"}); }
BENCHMARK(BM_StreamVersion)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_StreamPlugins(benchmark::State& state) { spawn_stream(state, {"plugins"}); }
BENCHMARK(BM_StreamPlugins)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_StreamRunDefault(benchmark::State& state) {
  const auto out = std::filesystem::temp_directory_path() / "stream_bench_startup";
  spawn_stream(state, {"run", "--out", out.string()});
}
BENCHMARK(BM_StreamRunDefault)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_StreamRunDefaultSummaryOnly(benchmark::State& state) {
  const auto out = std::filesystem::temp_directory_path() / "stream_bench_startup";
  spawn_stream(state, {"run", "--summary-only", "--out", out.string()});
}
BENCHMARK(BM_StreamRunDefaultSummaryOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
