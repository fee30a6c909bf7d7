// Whole models end to end, one `stream run --summary-only` process each (the issue-14 targets:
// ResNet-50 under 0.5 s CPU, ResNet-18 under 0.15 s): the reference's ResNet-18 export (224x224)
// and torchvision's ResNet-50 at 224x224 (inputs/workload/resnet50_224_op17.onnx), as exported
// (fp32) and cast to bf16, on the TPU-like quad core with automatic mapping. Wall time is the
// benchmark's figure; the counter `cpu_s` is the process's own user + system CPU per run.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "stream_process.hpp"

namespace {

void run_model(benchmark::State& state, const std::string& workload, const std::vector<std::string>& extra) {
  const auto out = std::filesystem::temp_directory_path() / "stream_bench_models";
  std::vector<std::string> args{"run", "--workload", workload, "--summary-only", "--out", out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  double cpu = 0;
  for (auto _ : state) {
    double run_cpu = 0;
    if (!stream::bench::run_stream_process(args, &run_cpu)) {
      state.SkipWithError("stream failed");
      break;
    }
    cpu += run_cpu;
  }
  state.counters["cpu_s"] = benchmark::Counter(cpu, benchmark::Counter::kAvgIterations);
}

const std::string kResNet18 = std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/workload/resnet18.onnx";
const std::string kResNet50 = std::string(STREAM_INPUTS_DIR) + "/workload/resnet50_224_op17.onnx";

void BM_ResNet18(benchmark::State& state) { run_model(state, kResNet18, {}); }
BENCHMARK(BM_ResNet18)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_ResNet18Bf16(benchmark::State& state) { run_model(state, kResNet18, {"--cast", "bf16"}); }
BENCHMARK(BM_ResNet18Bf16)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_ResNet50(benchmark::State& state) { run_model(state, kResNet50, {}); }
BENCHMARK(BM_ResNet50)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_ResNet50Bf16(benchmark::State& state) { run_model(state, kResNet50, {"--cast", "bf16"}); }
BENCHMARK(BM_ResNet50Bf16)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
