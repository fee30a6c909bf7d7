// Per-case time of the per-core cost model on the shared oracle cases, against the reference's
// recorded time. Counters: orderings/s = LOMA loop orderings costed per second (each one an
// allocation plus a full cost evaluation), speedup = reference wall time / our time per case.
// Filter with --benchmark_filter (e.g. 'conv2d-', '-tpu-', 'eltwise').
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>

#include "stream/cost/case_file.hpp"
#include "stream/cost/cost_model.hpp"
#include "stream/hardware/core_reader.hpp"

namespace {

namespace fs = std::filesystem;
using namespace stream::cost;

struct Data {
  std::vector<CostCase> cases;
  std::map<std::string, CoreModel> cores;
};

Data& data() {
  static Data d = [] {
    Data x;
    const fs::path file = fs::path(STREAM_SHARED_DIR) / "reference/oracle/cost-model-cases.json";
    const fs::path dir = fs::path(STREAM_SHARED_DIR) / "reference/stream-inputs/hardware/cores";
    if (!fs::exists(file)) return x;
    x.cases = read_cost_cases(file);
    for (const auto& c : x.cases)
      if (!x.cores.count(c.core)) x.cores.emplace(c.core, CoreModel::from_core(stream::hardware::load_core_file(dir / c.core)));
    return x;
  }();
  return d;
}

void run_case(benchmark::State& state, std::size_t index) {
  const CostCase& c = data().cases[index];
  const CoreModel& core = data().cores.at(c.core);
  CostOptions opt;
  opt.detail = false;
  std::uint64_t evaluated = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    CoreCost r = estimate(c.tile, core, opt);
    evaluated += r.orderings_evaluated;
    benchmark::DoNotOptimize(r.latency_total);
  }
  const double per = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                     static_cast<double>(state.iterations());
  state.counters["orderings/s"] = benchmark::Counter(static_cast<double>(evaluated), benchmark::Counter::kIsRate);
  state.counters["ref_s"] = c.reference_seconds;
  state.counters["speedup"] = per > 0 ? c.reference_seconds / per : 0;
}

const bool registered = [] {
  const auto& d = data();
  for (std::size_t i = 0; i < d.cases.size(); ++i) {
    if (d.cases[i].expected.status == "stream_error") continue;
    benchmark::RegisterBenchmark(("cost/" + d.cases[i].id).c_str(), [i](benchmark::State& s) { run_case(s, i); })
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace
