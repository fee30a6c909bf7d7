// Both fixtures on every example system of the reference (the matrix): the 2-conv
// workload with automatic mapping, and SwiGLU (seq 256, embedding 2048, hidden 8192, bf16) with
// intra-core tiling Gemm_Left.D1=128, Gemm_Down.D2=128, Gemm_Left.D2=32, Gemm_Left.D0=16.
// Every run must be solved to optimality and the total must be the sum of its groups.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/group_mapping.hpp>
#include <stream/pipeline/run.hpp>

#include "../schedule/two_conv_fixture.hpp"

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

const char* kSystems[] = {"eyeriss_like_single_core", "eyeriss_like_dual_core", "eyeriss_like_quad_core",
                          "tpu_like_quad_core", "meta_prototype_dual_core_simd_offchip", "simba_small", "simba",
                          "fusemax"};

void check(const pipeline::RunResult& r, const std::string& what) {
  ASSERT_TRUE(r.solved()) << what << ": " << (r.groups.empty() ? "" : r.groups[0].allocation.infeasibility);
  std::int64_t sum = 0;
  for (const auto& g : r.groups) {
    EXPECT_EQ(g.allocation.status, allocate::SolveStatus::Optimal) << what;
    EXPECT_GT(g.allocation.total_latency, 0) << what;
    sum += g.allocation.total_latency;
    for (const auto& n : g.schedule.nodes)
      if (n.kind == schedule::SsKind::Compute) {
        for (int c : n.cores) {
          EXPECT_NE(c, g.schedule.offchip_core) << what << ": compute on the off-chip core";
        }
      }
  }
  EXPECT_EQ(sum, r.total_latency) << what;
}

}  // namespace

class HardwareMatrix : public ::testing::TestWithParam<const char*> {};

TEST_P(HardwareMatrix, TwoConvAndSwiGluComplete) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/" + GetParam() + ".yaml");
  const auto t0 = std::chrono::steady_clock::now();
  const auto conv = pipeline::run(test::two_conv(), acc);
  const auto t1 = std::chrono::steady_clock::now();
  check(conv, std::string(GetParam()) + " 2-conv");
  pipeline::RunOptions o;
  o.intra_core_tiling = pipeline::parse_intra_core_tiling("Gemm_Left.D1=128,Gemm_Down.D2=128,Gemm_Left.D2=32,Gemm_Left.D0=16");
  const auto sw = pipeline::run(swiglu(256, 2048, 8192), acc, o);
  const auto t2 = std::chrono::steady_clock::now();
  check(sw, std::string(GetParam()) + " swiglu");
  std::printf("[matrix] %-40s 2-conv %10lld (%.3f s)   swiglu %12lld (%.3f s, %lld iterations)\n", GetParam(),
              static_cast<long long>(conv.total_latency), std::chrono::duration<double>(t1 - t0).count(),
              static_cast<long long>(sw.total_latency), std::chrono::duration<double>(t2 - t1).count(),
              static_cast<long long>(sw.groups.empty() ? 0 : sw.groups[0].tiled.iterations()));
}

INSTANTIATE_TEST_SUITE_P(ReferenceSystems, HardwareMatrix, ::testing::ValuesIn(kSystems));
