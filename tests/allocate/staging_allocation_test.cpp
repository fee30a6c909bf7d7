// The TETRA MILP on a steady state staged through memory cores (spec §4.8): several placement
// options per staged tensor (x[t,p]) and several plans per staged transfer (y[r,pi]), tied by
// source/destination coherence; memory capacity decides the memory cores. Accelerator and
// workload: tests/schedule/staging_fixture.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include <stream/allocate/allocation_milp.hpp>
#include <stream/schedule/steady_state.hpp>

#include <stream/hardware/accelerator_reader.hpp>

#include "../schedule/staging_fixture.hpp"
#include "../schedule/two_conv_fixture.hpp"

using namespace stream;
using namespace stream::schedule;

namespace {

const std::vector<int>& chosen(const SteadyState& ss, const allocate::Allocation& a, const std::string& t) {
  const int i = ss.tensor_index(t);
  EXPECT_GE(i, 0) << t;
  const auto& ten = ss.tensors.at(static_cast<std::size_t>(i));
  return ten.placements.at(static_cast<std::size_t>(a.placement.at(static_cast<std::size_t>(i))));
}

// Every transfer's chosen plan leaves from where its input sits and lands where its outputs sit.
void expect_coherent(const SteadyState& ss, const allocate::Allocation& a) {
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != SsKind::Transfer) continue;
    ASSERT_GE(a.plan[i], 0) << n.name;
    const auto& p = n.plans[static_cast<std::size_t>(a.plan[i])];
    const auto& in = ss.tensors[static_cast<std::size_t>(n.inputs.front())];
    EXPECT_EQ(p.sources, chosen(ss, a, in.name)) << n.name;
    for (int o : n.outputs) {
      const auto& out = ss.tensors[static_cast<std::size_t>(o)];
      EXPECT_EQ(p.targets, chosen(ss, a, out.name)) << n.name;
    }
  }
}

// Bits each core holds under the allocation (tile x tiles kept), over the tensors the capacity
// rows count: outputs of compute and transfer nodes.
std::map<int, std::int64_t> load(const SteadyState& ss, const allocate::Allocation& a) {
  std::map<int, std::int64_t> l;
  for (std::size_t t = 0; t < ss.tensors.size(); ++t) {
    const auto& ten = ss.tensors[t];
    if (ten.producer < 0) continue;
    const auto kind = ss.nodes[static_cast<std::size_t>(ten.producer)].kind;
    if (kind != SsKind::Compute && kind != SsKind::Transfer) continue;
    for (int c : chosen(ss, a, ten.name)) l[c] += ten.tile_bits * a.tiles_on_chip[t];
  }
  return l;
}

}  // namespace

// One iteration. Memory cores: 1 holds one 4096-bit tile, 3 two, 2 plenty. X_1 (4096 bits) sits
// on one core, W_1 and Y_2 (4096 per core) on pairs. Transfer(X) and Transfer(W) share slot 1
// and so need different shim links: X_1 is not on W_1's pair. Y_2 cannot use core 1: with it,
// core 1 is full and W_1 = {2, 3} leaves X_1 only core 1. So Y_2 = {2, 3}, and core 3 holds Y_2's
// half plus one of X_1 / W_1's half (8192); the three such placements tie.
// Slots: 0 | T(X) 64, T(W) 128 | T(X_1) 4096/32 = 128 | T(W_1) 8192/32 = 256 | Gemm 1000 |
// T(Y_1) 8192/32 = 256 | T(Y_2) 8192/64 = 128 | 0: total 1896.
TEST(StagingAllocation, MemoryCapacityPicksTheMemoryCoresAndPlansFollow) {
  const auto acc = test::staging_accelerator();
  const auto ss = steady_state(test::staging_tiled(test::staging_gemm()), test::staging_costs(1000), acc);
  const auto a = allocate::solve(ss, acc, *allocate::make_solver("cbc"));
  ASSERT_EQ(a.status, allocate::SolveStatus::Optimal) << a.infeasibility;
  const auto& w1 = chosen(ss, a, "W_1");
  const int x1 = chosen(ss, a, "X_1").front();
  EXPECT_EQ(std::find(w1.begin(), w1.end(), x1), w1.end()) << "X_1 on " << x1;
  EXPECT_EQ(chosen(ss, a, "Y_2"), (std::vector<int>{2, 3}));
  EXPECT_EQ(chosen(ss, a, "Y"), (std::vector<int>{0}));
  expect_coherent(ss, a);
  for (const auto& [c, bits] : load(ss, a)) EXPECT_LE(bits, acc.core(c).memory_capacity()) << "core " << c;
  EXPECT_EQ(load(ss, a).at(3), 8192);
  EXPECT_EQ(a.slot_latency, (std::vector<std::int64_t>{0, 128, 128, 256, 1000, 256, 128, 0}));
  EXPECT_EQ(a.total_latency, 1896);
}

// Without the capacity rows any memory cores do; the latency is the same (every plan into or out
// of the compute cores crosses the 32-bit links) and the allocation stays coherent.
TEST(StagingAllocation, WithoutCapacityRowsTheAllocationIsStillCoherent) {
  const auto acc = test::staging_accelerator();
  const auto ss = steady_state(test::staging_tiled(test::staging_gemm()), test::staging_costs(1000), acc);
  allocate::AllocateOptions o;
  o.constraints.memory_capacity = false;
  const auto a = allocate::solve(ss, acc, *allocate::make_solver("cbc"), o);
  ASSERT_EQ(a.status, allocate::SolveStatus::Optimal) << a.infeasibility;
  expect_coherent(ss, a);
  EXPECT_NE(chosen(ss, a, "X_1"), chosen(ss, a, "W_1"));  // slot 1: one shim link each
  EXPECT_EQ(a.total_latency, 1896);
}

// Two iterations along m (tile 8). W does not change between them: kept on its memory core
// (reuse 2, so Transfer(W) costs 128 / 2) and on the compute cores (Transfer(W_1) 256 / 2; the
// memory side holds at least as long). X, Y halve: T(X) 32, T(X_1) 64, T(Y_1) 128, T(Y_2) 64.
// Placements as in one iteration (X_1 double-buffered: 2 x 2048, Y_2 2 x 2048 per core).
// Slots 0 | 64 | 64 | 128 | 500 | 128 | 64 | 0: 948 per iteration. Overlap = the least idle
// time of any resource: the compute cores idle 948 - 500 = 448 (every link idles longer).
// Total 2 x 948 - 448 = 1448.
TEST(StagingAllocation, InvariantInputStaysOnItsMemoryCoreAcrossIterations) {
  const auto acc = test::staging_accelerator();
  const auto ss = steady_state(test::staging_tiled(test::staging_gemm(), 8), test::staging_costs(500), acc);
  ASSERT_EQ(ss.iterations, 2);
  const auto a = allocate::solve(ss, acc, *allocate::make_solver("cbc"));
  ASSERT_EQ(a.status, allocate::SolveStatus::Optimal) << a.infeasibility;
  expect_coherent(ss, a);
  EXPECT_EQ(chosen(ss, a, "Y_2"), (std::vector<int>{2, 3}));
  auto factor = [&](const std::string& t) { return a.reuse_factor[static_cast<std::size_t>(ss.tensor_index(t))]; };
  auto stop = [&](const std::string& t) { return a.reuse_stop[static_cast<std::size_t>(ss.tensor_index(t))]; };
  EXPECT_EQ(factor("W_1"), 2);
  EXPECT_EQ(factor("W_2"), 2);
  EXPECT_GE(stop("W_1"), stop("W_2"));
  EXPECT_EQ(factor("X_1"), 1);
  EXPECT_EQ(a.slot_latency, (std::vector<std::int64_t>{0, 64, 64, 128, 500, 128, 64, 0}));
  EXPECT_EQ(a.latency_per_iteration, 948);
  EXPECT_EQ(a.overlap, 448);
  EXPECT_EQ(a.total_latency, 1448);
}

// The reference's AIE array with the 2-conv on all 16 compute tiles (split 16 along ox): every
// staged tensor lands on one of its options and every plan agrees with the placements.
TEST(StagingAllocation, TwoConvOnTheWholeAieArrayIsCoherent) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_SHARED_DIR) +
                                              "/reference/stream-inputs/aie/hardware/whole_array.yaml");
  const Workload wl = test::two_conv();
  mapping::GroupMapping m;
  m.nodes.resize(wl.size());
  const std::vector<int> tiles{2, 3, 4, 5, 8, 9, 10, 11, 14, 15, 16, 17, 20, 21, 22, 23};
  for (std::size_t i : wl.computation_nodes()) m.nodes[i] = {tiles, {{1, 16}}};
  m.intra_core_tiling = {{"Conv1", 0, 1}};
  cost::CostTable costs;
  for (int id : tiles) {
    costs["Conv1"].push_back({id, "aie2.compute", 1000, 0, 0, 0, 0, "aie2"});
    costs["Conv2"].push_back({id, "aie2.compute", 2000, 0, 0, 0, 0, "aie2"});
  }
  const auto ss = steady_state(tiling::tile(wl, m), costs, acc);
  const auto a = allocate::solve(ss, acc, *allocate::make_solver("cbc"));
  ASSERT_EQ(a.status, allocate::SolveStatus::Optimal) << a.infeasibility;
  expect_coherent(ss, a);
  EXPECT_EQ(chosen(ss, a, "input_1"), (std::vector<int>{1, 7, 13, 19}));  // spans ox, split 16 over 4 columns
  for (const std::string t : {"weights_1_1", "weights_2_1"}) {
    const auto& where = chosen(ss, a, t);
    ASSERT_EQ(where.size(), 1u) << t;
    EXPECT_TRUE(where[0] == 1 || where[0] == 7 || where[0] == 13 || where[0] == 19) << t;
  }
  EXPECT_EQ(chosen(ss, a, "output_2"), (std::vector<int>{1, 7, 13, 19}));
  // Capacity holds on every core under the chosen placements and reuse.
  for (const auto& [c, bits] : load(ss, a)) EXPECT_LE(bits, acc.core(c).memory_capacity()) << "core " << c;
}

// Reuse compatibility of MEM_TO_COMPUTE transfers (spec §4.8 item 9): the memory side holds the
// tensor at least as long as the compute side (a >= row); aie2 accelerators make it an equality.
TEST(StagingAllocation, MemToComputeReuseIsAnEqualityOnAie2Only) {
  auto compat_row = [](const allocate::AllocationMilp& m, const std::string& name) -> const allocate::Row* {
    for (const auto& r : m.model.rows())
      if (r.name == name) return &r;
    return nullptr;
  };
  const auto aie = test::staging_accelerator();
  const auto staged = steady_state(test::staging_tiled(test::staging_gemm(), 8), test::staging_costs(500), aie);
  const auto m = allocate::build_model(staged, aie);
  const auto* r = compat_row(m, "compat_Transfer(W_1)_W_2");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->family, "reuse_compatibility");
  EXPECT_DOUBLE_EQ(r->lo, r->hi);

  const auto tpu = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml");
  const Workload wl = test::two_conv();
  mapping::GroupMapping mp;
  mp.nodes.resize(wl.size());
  for (std::size_t i : wl.computation_nodes()) mp.nodes[i] = {{0, 1, 2, 3}, {{1, 4}}};
  mp.intra_core_tiling = {{"Conv1", 1, 4}};  // ox 32 = 4 cores x tile 4 x 2 iterations
  cost::CostTable costs;
  for (int id : {0, 1, 2, 3}) {
    costs["Conv1"].push_back({id, "zigzag.compute", 100, 0, 0, 0, 0, "zigzag"});
    costs["Conv2"].push_back({id, "zigzag.compute", 100, 0, 0, 0, 0, "zigzag"});
  }
  const auto direct = steady_state(tiling::tile(wl, mp), costs, tpu);
  ASSERT_EQ(direct.iterations, 2);
  const auto mz = allocate::build_model(direct, tpu);
  const auto* rz = compat_row(mz, "compat_Transfer(weights_1)_weights_1_1");
  ASSERT_NE(rz, nullptr);
  EXPECT_NE(rz->lo, rz->hi);
}
