// Transfer routing on the reference's simba (6x6 mesh + DRAM core 36): Yen's k shortest paths
// for every core pair, and multicast plans from a fresh Router (no cached paths) for the DRAM
// broadcast (36 pairs) and a 32 -> 32 core transfer (1024 pairs, the spec's worst case, §7).
#include <benchmark/benchmark.h>

#include <numeric>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/schedule/routing.hpp>

using namespace stream;

namespace {

const hardware::Accelerator& simba() {
  static const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/simba.yaml");
  return acc;
}

std::vector<int> range(int from, int to) {
  std::vector<int> v(static_cast<std::size_t>(to - from));
  std::iota(v.begin(), v.end(), from);
  return v;
}

void BM_ShortestSimplePathsAllPairs(benchmark::State& state) {
  const auto& acc = simba();
  for (auto _ : state)
    for (int s = 0; s < 37; ++s)
      for (int t = 0; t < 37; ++t) benchmark::DoNotOptimize(acc.shortest_simple_paths(s, t, 4));
}
BENCHMARK(BM_ShortestSimplePathsAllPairs)->Unit(benchmark::kMillisecond);

void BM_MulticastDramToAllCores(benchmark::State& state) {
  const auto& acc = simba();
  const std::vector<int> dram{36}, cores = range(0, 36);
  for (auto _ : state) {
    schedule::Router router(acc);
    benchmark::DoNotOptimize(router.plan(dram, cores, 1 << 20));
  }
}
BENCHMARK(BM_MulticastDramToAllCores)->Unit(benchmark::kMillisecond);

void BM_Multicast32To32(benchmark::State& state) {
  const auto& acc = simba();
  const auto sources = range(0, 32), targets = range(4, 36);
  for (auto _ : state) {
    schedule::Router router(acc);
    benchmark::DoNotOptimize(router.plan(sources, targets, 1 << 20));
  }
}
BENCHMARK(BM_Multicast32To32)->Unit(benchmark::kMillisecond);

// The same plan again from a warm Router: what later transfers between the same groups cost.
void BM_Multicast32To32Cached(benchmark::State& state) {
  const auto& acc = simba();
  const auto sources = range(0, 32), targets = range(4, 36);
  schedule::Router router(acc);
  (void)router.plan(sources, targets, 1 << 20);
  for (auto _ : state) benchmark::DoNotOptimize(router.plan(sources, targets, 1 << 20));
}
BENCHMARK(BM_Multicast32To32Cached)->Unit(benchmark::kMillisecond);

}  // namespace
