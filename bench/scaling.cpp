// Scaling over model size: decoder_stack with N layers on the TPU-like quad core (the issue-14
// targets: time(N=128) / time(N=32) <= 4.5). BM_DecoderStackRun is pipeline::run end to end (no
// Softmax decomposition, no result files); BM_DecoderStackMapping is the automatic mapping of the
// whole stack as one fused group (the capacity tiler on ~4 unique dims per layer), the step that
// was quadratic. Both report their complexity in N.
#include <benchmark/benchmark.h>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/mapping/group_mapping.hpp>
#include <stream/pipeline/run.hpp>

#include "blocks.hpp"

using namespace stream;

namespace {

const hardware::Accelerator& tpu() {
  static const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml");
  return acc;
}

Workload decoder_stack(std::int64_t layers) {
  const auto spec = blocks::decoder_stack_spec();
  return spec.build(spec.resolve({{"layers", std::to_string(layers)}}));
}

void BM_DecoderStackMapping(benchmark::State& state) {
  const Workload w = decoder_stack(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(mapping::automatic_mapping(w, tpu()));
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_DecoderStackMapping)->RangeMultiplier(2)->Range(4, 128)->Unit(benchmark::kMillisecond)->Complexity();

void BM_DecoderStackRun(benchmark::State& state) {
  const Workload w = decoder_stack(state.range(0));
  std::size_t groups = 0, reused = 0;
  for (auto _ : state) {
    const auto r = pipeline::run(w, tpu());
    groups = r.groups.size();
    reused = r.reused_allocations;
    benchmark::DoNotOptimize(r.total_latency);
  }
  state.counters["groups"] = static_cast<double>(groups);
  state.counters["reused"] = static_cast<double>(reused);
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_DecoderStackRun)->RangeMultiplier(2)->Range(4, 128)->MinTime(1.0)->Unit(benchmark::kMillisecond)->Complexity();

}  // namespace
