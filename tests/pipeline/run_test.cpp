// The pipeline end to end on the hand-built 2-conv workload: automatic and hand-written mapping,
// the real per-core cost model, the MILP; the reference's goldens (spec §6.1-§6.3).
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/cost/estimate_costs.hpp>
#include <stream/pipeline/fusion_groups.hpp>
#include <stream/mapping/group_mapping.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/pipeline/run_cache.hpp>
#include <stream/report/write.hpp>

#include "../schedule/two_conv_fixture.hpp"

using namespace stream;

namespace {
hardware::Accelerator hw(const std::string& file) {
  return hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/" + file);
}
}  // namespace

TEST(GroupMapping, AutomaticSplitsTheFourTpuCoresOverOx) {
  const auto acc = hw("tpu_like_quad_core.yaml");
  const Workload wl = test::two_conv();
  const auto m = mapping::automatic_mapping(wl, acc);
  const auto conv1 = wl.index_of("Conv1");
  EXPECT_EQ(m.nodes[conv1].cores, (std::vector<int>{0, 1, 2, 3}));  // pooling/simd are specialized
  ASSERT_EQ(m.nodes[conv1].inter_core_tiling.size(), 1u);
  EXPECT_EQ(m.nodes[conv1].inter_core_tiling[0], (mapping::DimSplit{1, 4}));  // D1 (ox) split 4
  ASSERT_EQ(m.intra_core_tiling.size(), 1u);
  EXPECT_EQ(m.intra_core_tiling[0].node, "Conv1");
  EXPECT_EQ(m.intra_core_tiling[0].dim, 0);
  EXPECT_EQ(m.intra_core_tiling[0].tile, 1);
}

TEST(EstimateCosts, TwoConvTpuTilesMatchTheSpec) {
  const auto acc = hw("tpu_like_quad_core.yaml");
  const Workload wl = test::two_conv();
  const auto tiled = tiling::tile(wl, mapping::automatic_mapping(wl, acc));
  const auto costs = cost::estimate_costs(tiled, acc);
  ASSERT_EQ(costs.at("Conv1").size(), 4u);
  // spec §6.3 table: per-core tiles on tpu_like.
  EXPECT_EQ(costs.at("Conv1")[0].latency_total, 2376);
  EXPECT_NEAR(costs.at("Conv1")[3].energy_total, 550217.376, 1e-3);
  EXPECT_EQ(costs.at("Conv1")[0].ideal_cycle, 288);
  EXPECT_EQ(costs.at("Conv2")[2].latency_total, 4656);
  EXPECT_NEAR(costs.at("Conv2")[1].energy_total, 1257593.472, 1e-3);
}

TEST(Pipeline, TwoConvAutoTpuQuadCoreIs14344) {
  const auto acc = hw("tpu_like_quad_core.yaml");
  const auto r = pipeline::run(test::two_conv(), acc);
  ASSERT_EQ(r.groups.size(), 1u);
  ASSERT_TRUE(r.solved()) << r.groups[0].allocation.infeasibility;
  EXPECT_EQ(r.total_latency, 14344);
  EXPECT_GT(r.total_energy, 0);
}

// The run prices a solved group's layouts (layouts.yaml's figures) where a layout can change a
// figure or the run chooses layouts, and nowhere else: the report writes what the run priced.
TEST(Pipeline, TheRunPricesLayoutsWhereTheyMatter) {
  const auto tensors = [](const pipeline::GroupResult& g) {
    std::vector<std::string> out;
    for (const auto& p : *g.layout_prices) out.push_back(p.tensor);
    return out;
  };
  // Without a DMA model every layout of the 2-conv's row-major tensors costs the same.
  EXPECT_FALSE(pipeline::run(test::two_conv(), hw("tpu_like_quad_core.yaml")).groups.at(0).layout_prices);
  // With one, every tensor moved off chip, in order of first transfer.
  const auto dma = pipeline::run(test::two_conv(), hw("tpu_like_quad_core_dma.yaml"));
  ASSERT_TRUE(dma.groups.at(0).layout_prices);
  EXPECT_EQ(tensors(dma.groups[0]), (std::vector<std::string>{"input", "weights_1", "weights_2", "output"}));
  // `--layout choose` prices them even where they all cost the same.
  pipeline::RunSpec choose;
  choose.layout = layout::LayoutMode::Choose;
  const auto chosen = pipeline::run(test::two_conv(), hw("tpu_like_quad_core.yaml"), choose);
  ASSERT_TRUE(chosen.groups.at(0).layout_prices);
  EXPECT_EQ(chosen.groups[0].layout_prices->size(), 4u);
}

TEST(Pipeline, TwoConvAutoEyerissSingleCoreIs114999) {
  const auto acc = hw("eyeriss_like_single_core.yaml");
  const auto r = pipeline::run(test::two_conv(), acc);
  ASSERT_TRUE(r.solved());
  EXPECT_EQ(r.groups[0].costs.at("Conv1")[0].latency_total, 21048);
  EXPECT_EQ(r.groups[0].costs.at("Conv2")[0].latency_total, 83423);
  EXPECT_EQ(r.total_latency, 114999);
}

TEST(Pipeline, TwoConvHandWrittenKSplitMappingIs14344) {
  const auto acc = hw("tpu_like_quad_core.yaml");
  pipeline::RunSpec o;
  o.mapping = std::string(STREAM_INPUTS_DIR) + "/mapping/2conv_1_32_32_8_16_32_3.yaml";
  const auto r = pipeline::run(test::two_conv(), acc, o);
  ASSERT_TRUE(r.solved());
  // k split over four cores: the same per-core costs as the ox split (spec §6.2).
  EXPECT_EQ(r.groups[0].mapping.nodes[3].inter_core_tiling[0], (mapping::DimSplit{6, 4}));
  EXPECT_EQ(r.groups[0].costs.at("Conv1")[0].latency_total, 2376);
  EXPECT_EQ(r.groups[0].costs.at("Conv2")[0].latency_total, 4656);
  EXPECT_EQ(r.total_latency, 14344);
}

TEST(FusionGroups, PerLayerCutsGiveOneGroupPerConvWithCutEdges) {
  const Workload wl = test::two_conv();
  const auto cuts = pipeline::per_layer_cut_points(wl);
  ASSERT_EQ(cuts, std::vector<std::string>{"Conv1"});
  const auto groups = pipeline::split_fusion_groups(wl, cuts);
  ASSERT_EQ(groups.size(), 2u);
  std::vector<std::string> g0, g1;
  for (const auto& n : groups[0].nodes()) g0.push_back(n.name);
  for (const auto& n : groups[1].nodes()) g1.push_back(n.name);
  EXPECT_EQ(g0, (std::vector<std::string>{"input", "weights_1", "Conv1", "Conv1_cut_out"}));
  EXPECT_EQ(g1, (std::vector<std::string>{"Conv1_cut_in", "weights_2", "Conv2", "output_edge"}));
  // No cut point and no FusionEdge: the workload itself.
  EXPECT_EQ(pipeline::split_fusion_groups(wl, {}).size(), 1u);
  EXPECT_TRUE(pipeline::determine_fusion_cut_points(wl).empty());
}

TEST(Pipeline, PerLayerGroupsAddUp) {
  const auto acc = hw("tpu_like_quad_core.yaml");
  pipeline::RunSpec o;
  o.cut_mode = pipeline::CutMode::PerLayer;
  const auto r = pipeline::run(test::two_conv(), acc, o);
  ASSERT_TRUE(r.solved());
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.total_latency, r.groups[0].allocation.total_latency + r.groups[1].allocation.total_latency);
  // Group 0: input 1024 + w1 144 + Conv1 2376 + conv1_out to DRAM 2048 = 5592.
  EXPECT_EQ(r.groups[0].allocation.total_latency, 1024 + 144 + 2376 + 2048);
}

namespace {
// Every result file of a run except its clocks (timings.*), by path under `dir`.
std::map<std::string, std::string> result_files(const pipeline::RunResult& r, const hardware::Accelerator& acc,
                                                const std::filesystem::path& dir) {
  std::filesystem::remove_all(dir);
  report::write_results(r, {}, acc, dir);
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().filename().string().rfind("timings.", 0) == 0) continue;
    std::ifstream in(e.path(), std::ios::binary);
    files[std::filesystem::relative(e.path(), dir).generic_string()] =
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}
}  // namespace

// A cache filled by other runs (another cut, other accelerators) changes no byte of a run's results,
// and a run that repeats pairs or a topology it has seen costs and routes nothing new.
TEST(RunCache, SharedAcrossRunsGivesTheFreshRunsFiles) {
  const auto tpu = hw("tpu_like_quad_core.yaml");
  auto slow_bus = tpu;  // the same cores and topology, every connection at a quarter of its bandwidth
  for (auto& c : slow_bus.connectivity) c.bandwidth /= 4;
  slow_bus.build_interconnect();
  const auto simba = hw("simba_small.yaml");
  const auto tmp = std::filesystem::path(::testing::TempDir()) / "run_cache";
  pipeline::RunSpec fresh;
  fresh.cut_mode = pipeline::CutMode::PerLayer;
  auto files = [&](const hardware::Accelerator& acc, const pipeline::RunSpec& o, const std::string& name,
                   const pipeline::RunEnv& env = {}) {
    return result_files(pipeline::run(test::two_conv(), acc, o, env), acc, tmp / name);
  };
  const auto expected_tpu = files(tpu, fresh, "tpu");
  const auto expected_slow = files(slow_bus, fresh, "slow");
  const auto expected_simba = files(simba, fresh, "simba");
  ASSERT_GT(expected_tpu.size(), 5u);
  ASSERT_NE(expected_tpu.at("summary.yaml"), expected_slow.at("summary.yaml"));  // the bandwidth shows

  pipeline::RunSpec fused = fresh;
  pipeline::RunEnv shared;
  shared.cache = std::make_shared<pipeline::RunCache>();
  fused.cut_mode = pipeline::CutMode::Auto;  // the fused group's tiles and routes first
  ASSERT_TRUE(pipeline::run(test::two_conv(), tpu, fused, shared).solved());
  EXPECT_GT(shared.cache->costs().size(), 0u);
  EXPECT_EQ(files(simba, fresh, "simba_shared", shared), expected_simba);
  EXPECT_EQ(files(tpu, fresh, "tpu_shared", shared), expected_tpu);
  const auto filled = shared.cache->costs().size();
  EXPECT_EQ(files(slow_bus, fresh, "slow_shared", shared), expected_slow);
  EXPECT_EQ(files(tpu, fresh, "tpu_again", shared), expected_tpu);
  EXPECT_EQ(shared.cache->costs().size(), filled);  // the variant's cores perform as tpu's: no new pair
  EXPECT_EQ(shared.cache->routes(slow_bus), shared.cache->routes(tpu));
  EXPECT_NE(shared.cache->routes(simba), shared.cache->routes(tpu));
}

TEST(RunCache, ThreadsSharingRoutesGetTheFreshRunsFiles) {
  // Two threads, each with its own cache, share one RouteMemos (as a sweep's workers do): each
  // run's files are those of a run alone, and the topology's routes are one memo.
  const auto tpu = hw("tpu_like_quad_core.yaml");
  auto slow_bus = tpu;
  for (auto& c : slow_bus.connectivity) c.bandwidth /= 4;
  slow_bus.build_interconnect();
  const auto tmp = std::filesystem::path(::testing::TempDir()) / "run_cache_threads";
  pipeline::RunSpec fresh;
  const auto expected_tpu = result_files(pipeline::run(test::two_conv(), tpu, fresh), tpu, tmp / "tpu");
  const auto expected_slow = result_files(pipeline::run(test::two_conv(), slow_bus, fresh), slow_bus, tmp / "slow");
  const auto routes = std::make_shared<pipeline::RouteMemos>();
  std::vector<pipeline::RunResult> results(4);
  auto work = [&](int k) {
    pipeline::RunEnv env;
    env.cache = std::make_shared<pipeline::RunCache>(routes);
    for (int r = k; r < 4; r += 2) results[static_cast<std::size_t>(r)] = pipeline::run(test::two_conv(), r % 2 ? slow_bus : tpu, fresh, env);
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  EXPECT_EQ(result_files(results[0], tpu, tmp / "t0"), expected_tpu);
  EXPECT_EQ(result_files(results[2], tpu, tmp / "t2"), expected_tpu);
  EXPECT_EQ(result_files(results[1], slow_bus, tmp / "t1"), expected_slow);
  EXPECT_EQ(result_files(results[3], slow_bus, tmp / "t3"), expected_slow);
  EXPECT_EQ(routes->of(tpu), routes->of(slow_bus));
}

// RunEnv::cancel: a run stops at the step after the flag is raised (here by the first progress
// line, as an MCP job's cancel does), with Cancelled, which no step takes for a failed group.
TEST(RunEnv, ACancelledRunStopsAtItsNextStep) {
  const auto tpu = hw("tpu_like_quad_core.yaml");
  std::atomic<bool> cancel{false};
  std::vector<std::string> lines;
  pipeline::RunEnv env;
  env.cancel = &cancel;
  env.progress = [&](const std::string& line) {
    lines.push_back(line);
    cancel = true;
  };
  EXPECT_THROW((void)pipeline::run(test::two_conv(), tpu, {}, env), pipeline::Cancelled);
  EXPECT_EQ(lines.size(), 1u);
  cancel = false;
  lines.clear();
  env.progress = [&](const std::string& line) { lines.push_back(line); };
  EXPECT_TRUE(pipeline::run(test::two_conv(), tpu, {}, env).solved());
  EXPECT_GT(lines.size(), 1u);
}

// RunEnv::timings receives the run's clocks, one entry per group of the result, and a run without
// it gives the same result files (the values never depend on where the clocks go).
TEST(RunEnv, TheClocksGoApartFromTheValues) {
  const auto tpu = hw("tpu_like_quad_core.yaml");
  pipeline::RunSpec per_layer;
  per_layer.cut_mode = pipeline::CutMode::PerLayer;
  pipeline::RunTimings clocks;
  const auto timed = pipeline::run(test::two_conv(), tpu, per_layer, {.timings = &clocks});
  ASSERT_EQ(timed.groups.size(), 2u);
  ASSERT_EQ(clocks.groups.size(), 2u);
  for (const auto& g : clocks.groups) {
    EXPECT_EQ(g.attempts.size(), g.clocks.size());
    EXPECT_GT(g.wall_time_s, 0.0);
  }
  EXPECT_GE(clocks.wall_time_s, clocks.groups[0].wall_time_s + clocks.groups[1].wall_time_s);
  const auto tmp = std::filesystem::path(::testing::TempDir()) / "run_env_clocks";
  EXPECT_EQ(result_files(timed, tpu, tmp / "timed"), result_files(pipeline::run(test::two_conv(), tpu, per_layer), tpu, tmp / "plain"));
}
