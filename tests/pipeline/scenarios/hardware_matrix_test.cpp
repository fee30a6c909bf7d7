// Both fixtures on every example system of the reference (the matrix): the 2-conv
// workload with automatic mapping, and SwiGLU (seq 256, embedding 2048, hidden 8192, bf16) with
// intra-core tiling Gemm_Left.D1=128, Gemm_Down.D2=128, Gemm_Left.D2=32, Gemm_Left.D0=16.
// Every figure is the reference's (tests/data/reference/goldens.md, from its golden_metrics.json):
// latency, the last lexicographic objective, the latency-weighted MAC spatial utilisation and the
// end-to-end MAC utilisation (aie-and-defaults.md §5), the utilisations to 1e-9.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/mapping/group_mapping.hpp>
#include <stream/pipeline/metrics.hpp>
#include <stream/pipeline/run.hpp>

#include "../../schedule/two_conv_fixture.hpp"

using namespace stream;

namespace {

Workload swiglu(std::int64_t seq, std::int64_t emb, std::int64_t hid) {
  auto t = [](const std::string& n, std::vector<std::int64_t> s) { return make_tensor(n, DType::bf16, std::move(s)); };
  auto d = [](int i) { return AffineExpr::dim(i); };
  auto gemm = [&](const std::string& name, TensorPtr a, TensorPtr b, TensorPtr c) {
    return make_computation(name, "Gemm", {std::move(a), std::move(b)}, {std::move(c)},
                            {AffineMap(3, {d(0), d(1)}), AffineMap(3, {d(1), d(2)}), AffineMap(3, {d(0), d(2)})});
  };
  auto elt = [&](const std::string& name, const std::string& type, std::vector<TensorPtr> in, TensorPtr out) {
    std::vector<AffineMap> maps(in.size() + 1, AffineMap::identity(2));
    return make_computation(name, type, std::move(in), {std::move(out)}, std::move(maps));
  };
  auto x = t("input", {seq, emb}), w1 = t("weights_1", {emb, hid}), w2 = t("weights_2", {emb, hid}),
       w3 = t("weights_3", {hid, emb});
  auto l = t("left", {seq, hid}), r = t("right", {seq, hid}), s = t("silu", {seq, hid}), m = t("mul", {seq, hid}),
       y = t("output", {seq, emb});
  return Workload({make_in_edge("input", x), make_in_edge("weights_1", w1), make_in_edge("weights_2", w2),
                   make_in_edge("weights_3", w3), gemm("Gemm_Left", x, w1, l), gemm("Gemm_Right", x, w2, r),
                   elt("Silu", "Silu", {l}, s), elt("Elt_Mul", "Mul", {s, r}, m), gemm("Gemm_Down", m, w3, y),
                   make_out_edge("output_edge", y)});
}

struct Golden {
  std::int64_t latency;
  double objective, mac_util, e2e;
};

struct SystemGoldens {
  const char* system;
  Golden two_conv, swiglu;
};

void PrintTo(const SystemGoldens& g, std::ostream* os) { *os << g.system; }

// goldens.md, "2-conv and SwiGLU on the eight example systems".
const SystemGoldens kSystems[] = {
    {"eyeriss_like_single_core", {114999, 10, 0.6772569799, 0.3052945802}, {343933021, 12385, 0.5240084670, 0.2229964554}},
    {"eyeriss_like_dual_core", {76675, 10, 0.5079571759, 0.2289440589}, {170918067, 5201, 0.5234010143, 0.2243643575}},
    {"eyeriss_like_quad_core", {41961, 10, 0.5079861955, 0.2091738247}, {127074661, 2377, 0.5222288731, 0.1508873680}},
    {"tpu_like_quad_core", {14344, 10, 0.4155290102, 0.1003904071}, {103546916, 2377, 0.9716981132, 0.0303797363}},
    {"meta_prototype_dual_core_simd_offchip", {17385, 10, 0.5111064231, 0.1656600518}, {110100501, 5201, 1.0, 0.0571428462}},
    {"simba_small", {10750, 10, 0.5, 0.1339534884}, {123142418, 2377, 0.6469957082, 0.0255454461}},
    {"simba", {4316, 10, 0.5, 0.0370713624}, {38666519, 2377, 0.6469957082, 0.0090394828}},
    {"fusemax", {186148, 10, 0.0140625, 0.0004816050}, {76808227, 5201, 0.0932692308, 0.0025497658}},
};

void check(const pipeline::RunResult& r, const hardware::Accelerator& acc, const Golden& golden, const std::string& what) {
  ASSERT_TRUE(r.solved()) << what << ": " << (r.groups.empty() ? "" : r.groups[0].allocation.infeasibility);
  ASSERT_EQ(r.groups.size(), 1u) << what;
  const auto& g = r.groups[0];
  EXPECT_EQ(g.allocation.status, allocate::SolveStatus::Optimal) << what;
  for (const auto& n : g.schedule.nodes) {
    if (n.kind != schedule::SsKind::Compute) continue;
    for (int c : n.cores) EXPECT_NE(c, g.schedule.offchip_core) << what << ": compute on the off-chip core";
  }
  EXPECT_EQ(r.total_latency, golden.latency) << what;
  const auto m = pipeline::run_metrics(r, acc);
  ASSERT_TRUE(m.groups[0].objective.has_value()) << what;
  EXPECT_DOUBLE_EQ(*m.groups[0].objective, golden.objective) << what;
  EXPECT_EQ(m.groups[0].mip_gap.value_or(0.0), 0.0) << what;
  EXPECT_NEAR(m.mac_spatial_utilization, golden.mac_util, 1e-9) << what;
  ASSERT_TRUE(m.end_to_end_mac_utilization.has_value()) << what;
  EXPECT_NEAR(*m.end_to_end_mac_utilization, golden.e2e, 1e-9) << what;
  EXPECT_FALSE(m.degenerate) << what;
  EXPECT_EQ(m.max_group_latency, golden.latency) << what;
}

}  // namespace

class HardwareMatrix : public ::testing::TestWithParam<SystemGoldens> {
 protected:
  void check_system(Compat compat);
};

void HardwareMatrix::check_system(Compat compat) {
  const auto& p = GetParam();
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/" + p.system + ".yaml");
  const auto t0 = std::chrono::steady_clock::now();
  pipeline::RunSpec conv_options;
  conv_options.compat = compat;
  const auto conv = pipeline::run(test::two_conv(), acc, conv_options);
  const auto t1 = std::chrono::steady_clock::now();
  check(conv, acc, p.two_conv, std::string(p.system) + " 2-conv");
  pipeline::RunSpec o;
  o.compat = compat;
  o.intra_core_tiling = mapping::parse_tiling_spec("Gemm_Left.D1=128,Gemm_Down.D2=128,Gemm_Left.D2=32,Gemm_Left.D0=16");
  const auto sw = pipeline::run(swiglu(256, 2048, 8192), acc, o);
  const auto t2 = std::chrono::steady_clock::now();
  check(sw, acc, p.swiglu, std::string(p.system) + " swiglu");
  std::printf("[matrix] %-40s 2-conv %10lld (%.3f s)   swiglu %12lld (%.3f s, %lld iterations)\n", p.system,
              static_cast<long long>(conv.total_latency), std::chrono::duration<double>(t1 - t0).count(),
              static_cast<long long>(sw.total_latency), std::chrono::duration<double>(t2 - t1).count(),
              static_cast<long long>(sw.groups.empty() ? 0 : sw.groups[0].tiled.iterations()));
}

TEST_P(HardwareMatrix, TwoConvAndSwiGluGiveTheReferenceFigures) { check_system(Compat::None); }

// `--compat stream-1.13` is the reference's own path: the same figures (the 2-conv through the
// reference's tilers, both through its memory rows).
TEST_P(HardwareMatrix, TwoConvAndSwiGluGiveTheReferenceFiguresUnderCompat) { check_system(Compat::Stream113); }

INSTANTIATE_TEST_SUITE_P(ReferenceSystems, HardwareMatrix, ::testing::ValuesIn(kSystems),
                         [](const ::testing::TestParamInfo<SystemGoldens>& info) { return std::string(info.param.system); });
