// The mapping optimizer's figure (issue 39): on the 8 reference systems x 6 workloads, one
// `stream run --summary-only --mapping "optimize?evaluations=N&jobs=2&seed=1"` process per case
// (Iterations(1): the search is deterministic, a repeat measures only the machine). Counters, read
// from the run's optimize.yaml: automatic and optimized latency (cycles), their ratio and the
// evaluations spent; the benchmark's real time is the case's wall time. A case whose optimized
// latency exceeds the automatic one, or whose process fails, is an error naming why (its stderr
// tail). The issue asks: never worse, geomean ratio <= 0.9, under 60 s per case at N = 2,000 on 2
// cores; scripts/optimize_table.py prints the table.
//
// STREAM_OPTIMIZE_EVALUATIONS sets N (default 2,000), so that a quick check can run it small.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "optimize_yaml_figures.hpp"
#include "stream_process.hpp"

namespace {

namespace fs = std::filesystem;

const char* kOptimizeSystems[] = {"eyeriss_like_single_core", "eyeriss_like_dual_core", "eyeriss_like_quad_core",
                                  "fusemax", "meta_prototype_dual_core_simd_offchip", "simba", "simba_small",
                                  "tpu_like_quad_core"};

struct OptimizeWorkload {
  const char* name;  ///< the case's name
  const char* file;  ///< under inputs/workload
  bool bf16;         ///< --cast bf16: the fp32 exports' matmuls are otherwise estimates on some systems
};

const OptimizeWorkload kOptimizeWorkloads[] = {
    {"resnet18_int8", "resnet18_int8.onnx", false},
    {"mobilenet_v2_bf16", "exported/mobilenet_v2_op17.onnx", true},
    {"attention", "attention_pytorch.onnx", false},
    {"swiglu", "swiglu_1_16_32.onnx", false},
    {"fsrcnn_int8", "fsrcnn_int8.onnx", false},
    {"decoder_4l_bf16", "exported/transformer_decoder_4l_op17.onnx", true},
};

std::size_t evaluations_budget() {
  const char* text = std::getenv("STREAM_OPTIMIZE_EVALUATIONS");
  if (text == nullptr || *text == '\0') return 2000;
  return static_cast<std::size_t>(std::strtoull(text, nullptr, 10));
}

/// The last `bytes` of a file, for an error message.
std::string file_tail(const fs::path& path, std::size_t bytes = 600) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() > bytes ? "..." + text.substr(text.size() - bytes) : text;
}

void optimize_case(benchmark::State& state, const std::string& system, const OptimizeWorkload& workload) {
  const auto dir = fs::temp_directory_path() / "stream_bench_mapping_optimize" / (system + "-" + workload.name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string inputs = STREAM_INPUTS_DIR;
  std::vector<std::string> args{"run", "--hardware", inputs + "/hardware/" + system + ".yaml", "--workload",
                                inputs + "/workload/" + workload.file, "--summary-only", "--mapping",
                                "optimize?evaluations=" + std::to_string(evaluations_budget()) + "&jobs=2&seed=1",
                                "--out", dir.string(), "--experiment-id", "run"};
  if (workload.bf16) args.insert(args.end(), {"--cast", "bf16"});
  const auto log = dir / "stderr.txt";
  double cpu = 0;
  bool ok = true;
  for (auto _ : state) ok = stream::bench::run_stream_process(args, &cpu, log.string());
  if (!ok) {
    state.SkipWithError(("stream run failed: " + file_tail(log)).c_str());
    return;
  }
  const auto file = (dir / "run" / "optimize.yaml").string();
  std::string missing;
  const auto figures = stream::bench::read_optimize_figures(file, missing);
  if (!figures) {
    state.SkipWithError((file + ": no " + missing).c_str());
    return;
  }
  state.counters["automatic"] = static_cast<double>(figures->automatic);
  state.counters["optimized"] = static_cast<double>(figures->optimized);
  state.counters["ratio"] = static_cast<double>(figures->optimized) / static_cast<double>(figures->automatic);
  state.counters["evaluations"] = static_cast<double>(figures->evaluations);
  state.counters["cpu_s"] = cpu;
  if (figures->optimized > figures->automatic)
    state.SkipWithError(("optimized latency " + std::to_string(figures->optimized) + " > automatic " +
                         std::to_string(figures->automatic))
                            .c_str());
}

// One benchmark per (system, workload), named BM_Optimize/<system>/<workload>.
const bool kOptimizeRegistered = [] {
  for (const char* system : kOptimizeSystems)
    for (const auto& workload : kOptimizeWorkloads)
      benchmark::RegisterBenchmark(
          ("BM_Optimize/" + std::string(system) + "/" + workload.name).c_str(),
          [system, &workload](benchmark::State& state) { optimize_case(state, system, workload); })
          ->Iterations(1)
          ->UseRealTime()
          ->Unit(benchmark::kSecond);
  return true;
}();

}  // namespace
