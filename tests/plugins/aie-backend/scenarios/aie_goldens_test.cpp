// The reference's AIE figures through the real `stream` (goldens.md "AIE", aie-and-defaults §3):
// GEMM 256x8192x2048 (tiles 32/32/32) and SwiGLU 256/512/2048 (tiles 32/32/64) on
// whole_array_strix, 4 rows x 8 columns (--nb-cols-to-use 8), the mappings of §3.2/§3.3 without
// kernel entries (every tile at 100 %, as the reference's CI runs them), under both pipelining
// models; and the 2-conv on every AIE hardware file of the shared inputs, end to end.
// Workloads: inputs/workload/aie/ (stream-gen-workloads); mappings: inputs/mapping/aie/.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "stream_cli.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kStrix = std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/aie/hardware/whole_array_strix.yaml";
const std::string kInputs = STREAM_INPUTS_DIR;

struct Outcome {
  int code = -1;
  std::string log;
  nlohmann::json summary;
  std::string breakdown;  // slot_latency_breakdown.yaml of group 0
};

Outcome run(const std::string& id, const std::string& args) {
  const auto out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "aie_goldens";
  fs::remove_all(out / id);
  const auto r = stream::test::run_stream("run " + args + " --out " + out.string() + " --experiment-id " + id);
  Outcome o{r.code, r.out, {}, {}};
  const auto text = stream::test::read(out / id / "summary.json");
  if (!text.empty()) o.summary = nlohmann::json::parse(text);
  o.breakdown = stream::test::read(out / id / "group_0" / "slot_latency_breakdown.yaml");
  return o;
}

std::string gemm(const std::string& extra) {
  return "--hardware " + kStrix + " --workload " + kInputs + "/workload/aie/gemm_256_8192_2048.onnx --mapping " + kInputs +
         "/mapping/aie/gemm_256_8192_2048_whole_array.yaml --nb-cols-to-use 8 " + extra;
}

std::string swiglu(const std::string& extra) {
  return "--hardware " + kStrix + " --workload " + kInputs + "/workload/aie/swiglu_256_512_2048.onnx --mapping " + kInputs +
         "/mapping/aie/swiglu_256_512_2048_v2.yaml --nb-cols-to-use 8 " + extra;
}

std::int64_t total(const Outcome& o) { return o.summary.at("total_latency").get<std::int64_t>(); }

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// A run that succeeded with this total, period P and overlap V (total = I x P - (I - 1) x V).
void expect_steady_state(const Outcome& o, std::int64_t total_latency, int period, int overlap) {
  ASSERT_EQ(o.code, 0) << o.log;
  EXPECT_EQ(total(o), total_latency) << o.breakdown;
  EXPECT_TRUE(has(o.breakdown, "latency_per_iteration: " + std::to_string(period))) << o.breakdown;
  EXPECT_TRUE(has(o.breakdown, "overlap: " + std::to_string(overlap))) << o.breakdown;
}

}  // namespace

// §3.2: I = 256 (K) x 2 (M) x 8 (N) = 4096 iterations, P = 1024 + 1024 + 2048 + 2048 + 1024 + 32
// + 32 = 7232 (a 32x32x32 tile per AIE tile: 32768 MACs / 32 per cycle = 1024). OCCUPANCY
// (default): overlap 1056, 4096 x 7232 - 4095 x 1056 = 25,297,952. SPAN: overlap 32 (the shim ->
// memory links), 4096 x 7232 - 4095 x 32 = 29,491,232 (the reference's own pin).
TEST(AieGoldens, GemmOccupancy) {
  expect_steady_state(run("gemm_occupancy", gemm("")), 25297952, 7232, 1056);
}

TEST(AieGoldens, GemmSpan) {
  expect_steady_state(run("gemm_span", gemm("--constraint-selection pipelining=span")), 29491232, 7232, 32);
}

// `--compat stream-1.13` keeps both pins (a mapping file: its memory rows only change).
TEST(AieGoldens, GemmPinsUnderCompat) {
  expect_steady_state(run("gemm_occupancy_compat", gemm("--compat stream-1.13")), 25297952, 7232, 1056);
  expect_steady_state(run("gemm_span_compat", gemm("--constraint-selection pipelining=span --compat stream-1.13")), 29491232,
                      7232, 32);
}

// §3.3/§3.4: I = 4096, P = 1138; OCCUPANCY overlap 722: 4096 x 1138 - 4095 x 722 = 1,704,658;
// SPAN overlap 338: 4096 x 1138 - 4095 x 338 = 3,277,138.
// These need the reference HEAD's 12 slots (fusion-and-slots B.3): 128 | 128 | 256 | 256 | 32 |
// 1 | 32 | 1 | 32 | 256 | 8 | 8, P = 1138. They come from the routing tie order: Yen's candidate
// paths on the copy of the graph whose predecessors are in node order send T(input_1) to columns
// 2-3 over the horizontal links, so T(weights_2_1) and T(weights_3_1) find link-disjoint plans and
// join it in slot 2 (with G's order they went to slot 3: #109's slots, P = 1041).
TEST(AieGoldens, SwigluOccupancy) {
  expect_steady_state(run("swiglu_occupancy", swiglu("")), 1704658, 1138, 722);
}

// DISABLED for its time, not its figure: SPAN has the same 12 slots (P = 1138) and this run gives
// 3,277,138 (overlap 338), every level proven optimal (3,277,143 / 1,765,376 / 709), but CBC needs
// 470 s of CPU for it (972 s wall on a loaded 2-core machine), against ~40 s for OCCUPANCY. Run it
// with --gtest_also_run_disabled_tests. (CBC stopped at 4,137,088 after 500 s on this tool at
// 470d6ce, before 7fd1026 bounded each slot latency by its own nodes' largest latency.)
TEST(AieGoldens, DISABLED_SwigluSpanFromARunConfig) {
  const auto dir = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "aie_goldens";
  fs::create_directories(dir);
  const auto config = dir / "span.yaml";
  std::ofstream(config) << "constraint_selection:\n  pipelining: span\nnb_cols_to_use: 8\n";
  const auto o = run("swiglu_span", "--hardware " + kStrix + " --workload " + kInputs +
                                        "/workload/aie/swiglu_256_512_2048.onnx --mapping " + kInputs +
                                        "/mapping/aie/swiglu_256_512_2048_v2.yaml --config " + config.string());
  ASSERT_EQ(o.code, 0) << o.log;
  EXPECT_NEAR(static_cast<double>(total(o)), 3277138.0, 0.01 * 3277138.0) << o.breakdown;
  EXPECT_EQ(total(o), 3277138) << o.breakdown;
}

// The 2-conv (automatic mapping and tiling) on each AIE hardware file of the shared inputs, end
// to end. Figures of this tool (the reference pins none): single_col 58,944 and
// whole_array_strix 30,624 as before the aie2 families; whole_array 36,384 -> 37,248 since the
// input staged from off-chip is counted on its consumer (16 tiles over 4 columns, split along ox:
// all four memory tiles hold a quarter each, instead of one tile the whole input). On
// single_core the one AIE tile receives more tiles than its object FIFOs hold (depth 12; Conv2's
// intermediate is forced to stay across the fused loop): infeasible, as the reference's rules
// make it; without the depth and descriptor families it is the 184,468 of before.
TEST(AieGoldens, TwoConvOnEveryAieHardwareFile) {
  auto two_conv = [](const std::string& hw, const std::string& extra) {
    return run("two_conv_" + hw, "--hardware " + std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/aie/hardware/" +
                                     hw + ".yaml --workload " + std::string(STREAM_TEST_DATA_DIR) +
                                     "/reference/stream-inputs/workload/2conv_1_8_32_32_16_32_3.onnx " + extra);
  };
  const std::pair<const char*, std::int64_t> cases[] = {
      {"single_col", 58944}, {"whole_array", 37248}, {"whole_array_strix", 30624}};
  for (const auto& [hw, latency] : cases) {
    const auto o = two_conv(hw, "");
    ASSERT_EQ(o.code, 0) << hw << "\n" << o.log;
    EXPECT_EQ(total(o), latency) << hw;
  }
  const auto depth = two_conv("single_core", "");
  EXPECT_EQ(depth.code, 1) << depth.log;
  EXPECT_TRUE(has(depth.log, "no allocation (INFEASIBLE)")) << depth.log;
  const auto free = two_conv("single_core", "--constraint-selection object_fifo_depth=off,buffer_descriptors=off");
  ASSERT_EQ(free.code, 0) << free.log;
  EXPECT_EQ(total(free), 184468);
}

TEST(AieGoldens, BadConstraintSelectionIsExitTwo) {
  const auto bad_key = stream::test::run_stream("run --constraint-selection pipelinig=span");
  EXPECT_EQ(bad_key.code, 2) << bad_key.out;
  EXPECT_TRUE(has(bad_key.out, "unknown constraint selection field 'pipelinig'")) << bad_key.out;
  const auto bad_value = stream::test::run_stream("run --constraint-selection pipelining=fast");
  EXPECT_EQ(bad_value.code, 2) << bad_value.out;
  EXPECT_TRUE(has(bad_value.out, "occupancy or span")) << bad_value.out;
  const auto dir = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "aie_goldens";
  fs::create_directories(dir);
  const auto config = dir / "bad.yaml";
  std::ofstream(config) << "constraint_selection:\n  dma_channels: sometimes\nnb_cols: 8\n";
  const auto bad_config = stream::test::run_stream("run --config " + config.string());
  EXPECT_EQ(bad_config.code, 2) << bad_config.out;
  EXPECT_TRUE(has(bad_config.out, "bad.yaml:2")) << bad_config.out;          // the bad value, located
  EXPECT_TRUE(has(bad_config.out, "unknown key 'nb_cols'")) << bad_config.out;
}
