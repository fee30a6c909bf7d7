// Start-up of the `stream` executable, process and all (fork, exec, dynamic linking, plugin
// discovery and loading): `stream --version`, `stream plugins` and `stream run` on the bundled
// 2-conv default. Wall time per process, the figure a user waits for.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "stream_process.hpp"

namespace {

void spawn_stream(benchmark::State& state, const std::vector<std::string>& args) {
  for (auto _ : state)
    if (!stream::bench::run_stream_process(args)) {
      state.SkipWithError("stream failed");
      break;
    }
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
