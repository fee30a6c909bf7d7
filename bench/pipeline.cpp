// Scheduler and MILP-build benchmarks on the 2-conv steady state (tpu_like_quad_core, hand costs
// from spec §6.3) and on a larger synthetic chain with several iterations, plus the CBC solve
// (one level, and the three lexicographic levels on one loaded model) and the result writers.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>

#include <stream/allocate/allocation_milp.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/cost/estimate_costs.hpp>
#include <stream/mapping/group_mapping.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/report/group_files.hpp>
#include <stream/report/summary.hpp>
#include <stream/report/write.hpp>
#include <stream/schedule/steady_state.hpp>

using namespace stream;

namespace {

Node conv(const std::string& name, TensorPtr in, TensorPtr w, TensorPtr out) {
  auto d = [](int i) { return AffineExpr::dim(i); };
  return make_computation(name, "Conv", {std::move(in), std::move(w)}, {std::move(out)},
                          {AffineMap(7, {d(0), d(5), d(2) + d(4) - 1, d(1) + d(3) - 1}),
                           AffineMap(7, {d(6), d(5), d(4), d(3)}), AffineMap(7, {d(0), d(6), d(2), d(1)})});
}

// A chain of `layers` 3x3 convolutions, 16 channels, 32x32, batch 4.
Workload chain(int layers) {
  auto t = [](const std::string& n, std::vector<std::int64_t> s) { return make_tensor(n, DType::bf16, std::move(s)); };
  std::vector<Node> nodes;
  auto x = t("x0", {4, 16, 32, 32});
  nodes.push_back(make_in_edge("x0", x));
  std::vector<Node> convs;
  for (int l = 0; l < layers; ++l) {
    auto w = t("w" + std::to_string(l), {16, 16, 3, 3});
    nodes.push_back(make_in_edge("w" + std::to_string(l), w));
    auto y = t("x" + std::to_string(l + 1), {4, 16, 32, 32});
    convs.push_back(conv("Conv" + std::to_string(l), x, w, y));
    x = y;
  }
  for (auto& c : convs) nodes.push_back(std::move(c));
  nodes.push_back(make_out_edge("out", x));
  return Workload(std::move(nodes));
}

const hardware::Accelerator& tpu() {
  static const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml");
  return acc;
}

struct Case {
  tiling::TiledGroup tiled;
  cost::CostTable costs;
};

Case make_case(int layers, std::int64_t batch_tile) {
  const Workload wl = chain(layers);
  auto m = mapping::automatic_mapping(wl, tpu(), {{"Conv0", 0, batch_tile}});
  Case c{tiling::tile(wl, m), {}};
  for (std::size_t i : c.tiled.workload.computation_nodes())
    for (int core : c.tiled.mapping[i].cores) c.costs[c.tiled.workload.node(i).name].push_back({core, "zigzag.compute", 1000, 0, 0, 0, 0, "zigzag"});
  return c;
}

void BM_SteadyState(benchmark::State& state) {
  const Case c = make_case(static_cast<int>(state.range(0)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(schedule::steady_state(c.tiled, c.costs, tpu()));
}
BENCHMARK(BM_SteadyState)->Arg(2)->Arg(8)->Arg(32)->Unit(benchmark::kMicrosecond);

void BM_BuildMilp(benchmark::State& state) {
  const Case c = make_case(static_cast<int>(state.range(0)), 1);
  const auto ss = schedule::steady_state(c.tiled, c.costs, tpu());
  std::size_t vars = 0, rows = 0;
  for (auto _ : state) {
    auto m = allocate::build_model(ss, tpu());
    vars = m.model.num_vars();
    rows = m.model.num_rows();
    benchmark::DoNotOptimize(m);
  }
  state.counters["vars"] = static_cast<double>(vars);
  state.counters["rows"] = static_cast<double>(rows);
}
BENCHMARK(BM_BuildMilp)->Arg(2)->Arg(8)->Arg(32)->Unit(benchmark::kMicrosecond);

void BM_SolveMilp(benchmark::State& state) {
  const Case c = make_case(static_cast<int>(state.range(0)), 1);
  const auto ss = schedule::steady_state(c.tiled, c.costs, tpu());
  const auto solver = allocate::make_solver("cbc");
  for (auto _ : state) benchmark::DoNotOptimize(allocate::solve(ss, tpu(), *solver));
}
BENCHMARK(BM_SolveMilp)->Arg(2)->Arg(8)->Unit(benchmark::kMillisecond);

// One CBC solve of the first (latency) level: the per-solve cost of a small allocation MILP.
void BM_CbcSolveOneLevel(benchmark::State& state) {
  const Case c = make_case(static_cast<int>(state.range(0)), 1);
  const auto ss = schedule::steady_state(c.tiled, c.costs, tpu());
  const auto m = allocate::build_model(ss, tpu());
  const auto solver = allocate::make_solver("cbc");
  for (auto _ : state) benchmark::DoNotOptimize(solver->solve(m.model, m.levels.front().expr, {}));
  state.counters["vars"] = static_cast<double>(m.model.num_vars());
  state.counters["rows"] = static_cast<double>(m.model.num_rows());
}
BENCHMARK(BM_CbcSolveOneLevel)->Arg(2)->Arg(8)->Arg(32)->Unit(benchmark::kMicrosecond);

// All levels (latency, off-chip traffic, buffering), the lock rows added between them.
void BM_CbcLexicographic(benchmark::State& state) {
  const Case c = make_case(static_cast<int>(state.range(0)), 1);
  const auto ss = schedule::steady_state(c.tiled, c.costs, tpu());
  const auto m = allocate::build_model(ss, tpu());
  const auto solver = allocate::make_solver("cbc");
  for (auto _ : state) benchmark::DoNotOptimize(allocate::solve_lexicographic(m.model, m.levels, *solver, {}));
}
BENCHMARK(BM_CbcLexicographic)->Arg(2)->Arg(8)->Arg(32)->Unit(benchmark::kMicrosecond);

const pipeline::RunResult& chain_run(int layers) {
  static std::map<int, pipeline::RunResult> runs;
  auto it = runs.find(layers);
  if (it == runs.end()) it = runs.emplace(layers, pipeline::run(chain(layers), tpu())).first;
  return it->second;
}

// The text of every per-group YAML file of a run (no file system).
void BM_GroupYamlText(benchmark::State& state) {
  const auto& r = chain_run(static_cast<int>(state.range(0)));
  const auto& acc = tpu();
  std::size_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    for (const auto& g : r.groups) {
      bytes += mapping::mapping_yaml(g.workload, g.mapping).size() + report::core_cost_lut_yaml(g).size() +
               report::slot_latency_breakdown_yaml(g, acc).size() + report::optimization_metrics_yaml(g, "cbc").size() +
               report::memory_accesses_yaml(g).size();
    }
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["groups"] = static_cast<double>(r.groups.size());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_GroupYamlText)->Arg(2)->Arg(8)->Unit(benchmark::kMicrosecond);

void BM_SummaryYamlText(benchmark::State& state) {
  const auto& r = chain_run(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(report::summary_yaml(r, nullptr, nullptr));
}
BENCHMARK(BM_SummaryYamlText)->Arg(8)->Unit(benchmark::kMicrosecond);

// Every result file written to a temporary directory.
void BM_WriteResults(benchmark::State& state) {
  const auto& r = chain_run(static_cast<int>(state.range(0)));
  const auto dir = std::filesystem::temp_directory_path() / "stream_bench_write_results";
  for (auto _ : state) report::write_results(r, {}, tpu(), dir, "cbc", false);
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_WriteResults)->Arg(2)->Arg(8)->Unit(benchmark::kMillisecond);

void BM_CostTable2Conv(benchmark::State& state) {
  const Case c = make_case(2, 1);
  for (auto _ : state) benchmark::DoNotOptimize(cost::estimate_costs(c.tiled, tpu()));
}
BENCHMARK(BM_CostTable2Conv)->Unit(benchmark::kMillisecond);

}  // namespace
