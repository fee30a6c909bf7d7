// Sweep throughput: `stream sweep` on the 2-conv over the 8 bundled systems x 13 (104 points,
// each evaluated: every repeat has its own row), against a loop of one `stream run` process per
// point. The counter `points_per_s` is the figure the sweep issue names (>= 100/s in-process on
// 2 cores, >= 20x the loop of processes).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "stream_process.hpp"

namespace {

namespace fs = std::filesystem;

const char* kSystems[] = {"eyeriss_like_single_core.yaml", "eyeriss_like_dual_core.yaml",
                          "eyeriss_like_quad_core.yaml", "tpu_like_quad_core.yaml",
                          "meta_prototype_dual_core_simd_offchip.yaml", "simba_small.yaml", "simba.yaml",
                          "fusemax.yaml"};
constexpr int kRepeats = 13;

using stream::bench::run_stream_process;

fs::path sweep_file() {
  const auto dir = fs::temp_directory_path() / "stream_bench_sweep";
  fs::create_directories(dir);
  std::ofstream f(dir / "sweep.yaml");
  f << "axes:\n  hardware:\n";
  for (int r = 0; r < kRepeats; ++r)
    for (const char* s : kSystems) f << "    - " << s << "\n";
  f << "  workload: [2conv_1_8_32_32_16_32_3.onnx]\n";
  return dir / "sweep.yaml";
}

void BM_SweepInProcess(benchmark::State& state) {
  const auto file = sweep_file();
  const auto out = file.parent_path() / "out";
  const auto points = static_cast<double>(kRepeats * std::size(kSystems));
  for (auto _ : state) {
    fs::remove_all(out);
    if (!run_stream_process({"sweep", file.string(), "--out", out.string(), "--jobs", std::to_string(state.range(0))})) {
      state.SkipWithError("stream sweep failed");
      break;
    }
  }
  state.counters["points_per_s"] = benchmark::Counter(points * static_cast<double>(state.iterations()),
                                                      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SweepInProcess)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// 125 distinct hardware variants made by overrides (inputs/sweeps/tpu_variants_2conv.yaml): each
// point builds its own accelerator from the file's tree, read once.
void BM_SweepHardwareVariants(benchmark::State& state) {
  const auto file = fs::path(STREAM_INPUTS_DIR) / "sweeps" / "tpu_variants_2conv.yaml";
  const auto out = fs::temp_directory_path() / "stream_bench_sweep" / "variants";
  for (auto _ : state) {
    fs::remove_all(out);
    if (!run_stream_process({"sweep", file.string(), "--out", out.string(), "--jobs", std::to_string(state.range(0))})) {
      state.SkipWithError("stream sweep failed");
      break;
    }
  }
  state.counters["points_per_s"] = benchmark::Counter(125.0 * static_cast<double>(state.iterations()),
                                                      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SweepHardwareVariants)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same points as one `stream run --summary-only` process each (one round of the 8 systems).
void BM_LoopOfRunProcesses(benchmark::State& state) {
  const auto out = fs::temp_directory_path() / "stream_bench_sweep" / "loop";
  for (auto _ : state)
    for (const char* s : kSystems)
      if (!run_stream_process({"run", "--hardware", std::string("hardware/") + s, "--summary-only", "--out", out.string()})) {
        state.SkipWithError("stream run failed");
        return;
      }
  state.counters["points_per_s"] = benchmark::Counter(
      static_cast<double>(std::size(kSystems)) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LoopOfRunProcesses)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
