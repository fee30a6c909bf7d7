// Per-case time of the per-core cost model on the shared oracle cases, against the reference's
// recorded time. Counters: orderings/s = LOMA loop orderings costed per second (each one an
// allocation plus a full cost evaluation), speedup = reference wall time / our time per case.
// Filter with --benchmark_filter (e.g. 'conv2d-', '-tpu-', 'eltwise').
#include <benchmark/benchmark.h>

#include <ctime>
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
    const fs::path file = fs::path(STREAM_TEST_DATA_DIR) / "reference/oracle/cost-model-cases.json";
    const fs::path dir = fs::path(STREAM_TEST_DATA_DIR) / "reference/stream-inputs/hardware/cores";
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
  // Thread CPU time: the machine is shared, and the reference timings were taken on an idle one.
  auto cpu = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  const double t0 = cpu();
  for (auto _ : state) {
    CoreCost r = estimate(c.tile, core, opt);
    evaluated += r.orderings_evaluated;
    benchmark::DoNotOptimize(r.latency_total);
  }
  const double per = (cpu() - t0) / static_cast<double>(state.iterations());
  state.counters["orderings/s"] = per > 0 ? static_cast<double>(evaluated) / static_cast<double>(state.iterations()) / per : 0;
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
