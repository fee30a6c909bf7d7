// The allocation MILP (allocate/allocation_milp.hpp) on hand-derived small cases: the solver
// interface, the lexicographic solve and the TETRA pieces; the aie2 constraint families and the
// ConstraintSelection (aie-and-defaults §2.14-§2.20), each on a small hand-built steady state whose
// optimum is derived in the test's comment: object-FIFO depth, buffer descriptors, DMA channels
// (caps and the objective term), the memory-tile reuse equality, the namespace switch, and the two
// pipelining models; and a steady state staged through memory cores (spec §4.8): several placement
// options per staged tensor (x[t,p]) and several plans per staged transfer (y[r,pi]), tied by
// source/destination coherence, memory capacity deciding the memory cores (accelerator and
// workload: tests/schedule/staging_fixture.hpp). Solving is exact (CBC), so every figure is
// asserted exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include <stream/allocate/allocation_milp.hpp>
#include <stream/allocate/mps.hpp>
#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/schedule/steady_state.hpp>

#include "../schedule/staging_fixture.hpp"
#include "../schedule/two_conv_fixture.hpp"

using namespace stream;
using namespace stream::allocate;
using namespace stream::schedule;


TEST(Cbc, SolvesASmallKnapsackExactly) {
  // max 5a + 4b + 3c s.t. 2a + 3b + c <= 5 (binaries): a + b (weight 5, value 9) beats a + c (8).
  LinearModel m;
  Var a = m.add_binary("a"), b = m.add_binary("b"), c = m.add_binary("c");
  m.add_le(2.0 * LinExpr(a) + 3.0 * LinExpr(b) + LinExpr(c), 5.0, "cap", "test");
  const auto s = make_solver("cbc")->solve(m, -5.0 * LinExpr(a) - 4.0 * LinExpr(b) - 3.0 * LinExpr(c), {});
  ASSERT_EQ(s.status, SolveStatus::Optimal);
  EXPECT_DOUBLE_EQ(s.objective, -9.0);
  EXPECT_EQ(s.values[static_cast<std::size_t>(a.index)], 1);
  EXPECT_EQ(s.values[static_cast<std::size_t>(b.index)], 1);
}

TEST(Cbc, ReportsInfeasibility) {
  LinearModel m;
  Var x = m.add_var("x", VarKind::Integer, 0, 10);
  m.add_ge(x, 11.0, "too_big", "test");
  EXPECT_EQ(make_solver("cbc")->solve(m, LinExpr(x), {}).status, SolveStatus::Infeasible);
}

// CBC's preprocessing aborts the process on coefficients far above 1e13; the solver refuses a
// model with one above 2^46 with an error naming the row, before CBC sees it.
TEST(Cbc, RefusesCoefficientsBeyondItsRange) {
  LinearModel m;
  Var x = m.add_var("x", VarKind::Integer, 0, 10);
  m.add_le(1e15 * LinExpr(x), 1e16, "huge_row", "test");
  try {
    (void)make_solver("cbc")->solve(m, LinExpr(x), {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("constraint 'huge_row' (test)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("beyond what the MILP solver handles"), std::string::npos) << e.what();
  }
}

TEST(Lexicographic, SecondLevelOnlyBreaksTiesOfTheFirst) {
  // min x + y (level 1), then min x (level 2), x + y >= 3, integers in [0, 5]: (0, 3).
  LinearModel m;
  Var x = m.add_var("x", VarKind::Integer, 0, 5), y = m.add_var("y", VarKind::Integer, 0, 5);
  m.add_ge(LinExpr(x) + LinExpr(y), 3.0, "c", "test");
  const auto r = solve_lexicographic(m, {{"sum", LinExpr(x) + LinExpr(y)}, {"x", LinExpr(x)}}, *make_solver("cbc"), {});
  ASSERT_EQ(r.status, SolveStatus::Optimal);
  EXPECT_EQ(r.level_objectives, (std::vector<double>{3, 0}));
  EXPECT_EQ(r.values[static_cast<std::size_t>(y.index)], 3);
}

TEST(Lexicographic, UnknownSolverIsAnError) { EXPECT_THROW((void)make_solver("gurobi"), Error); }

TEST(ReuseLevels, HandDerivedFactors) {
  // Loops innermost first: k[4] VARYING, b[2] INVARIANT, x[3] ABSENT, y[5] VARYING.
  schedule::SsTensor t;
  t.loops = {{0, 4, schedule::LoopEffect::Varying},
             {1, 2, schedule::LoopEffect::Invariant},
             {2, 3, schedule::LoopEffect::Absent},
             {3, 5, schedule::LoopEffect::Varying}};
  const auto r = reuse_levels(t, true);
  EXPECT_EQ(r.sizes, (std::vector<std::int64_t>{4, 2, 5}));  // the absent loop is not applicable
  // sigma = -1, 0, 1, 2: R multiplies the irrelevant sizes, TN the relevant ones.
  EXPECT_EQ(r.reuse, (std::vector<std::int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(r.tiles, (std::vector<std::int64_t>{2, 4, 4, 20}));  // sigma -1: double buffering
  EXPECT_EQ(reuse_levels(t, false).tiles.front(), 1);
}

namespace {
// Two compute nodes on one core each, and two transfers sharing one bus in one slot.
schedule::SteadyState two_transfers_one_slot(std::int64_t iterations) {
  using namespace schedule;
  SteadyState ss;
  ss.iterations = iterations;
  ss.offchip_core = 1;
  ss.max_slot = 1;
  auto tensor = [&](const std::string& n, int producer, std::vector<int> place) {
    SsTensor t;
    t.name = n;
    t.bits = 128;
    t.tile_bits = 128;
    t.producer = producer;
    t.placements = {std::move(place)};
    t.loops = {{0, iterations, LoopEffect::Varying}};
    ss.tensors.push_back(t);
    return static_cast<int>(ss.tensors.size()) - 1;
  };
  SsNode in;
  in.kind = SsKind::InEdge;
  in.name = "in";
  in.cores = {1};
  in.slot = 0;
  ss.nodes.push_back(in);
  const int a = tensor("a", 0, {1}), b = tensor("b", 0, {1});
  ss.nodes[0].outputs = {a, b};
  for (int k = 0; k < 2; ++k) {
    SsNode tr;
    tr.kind = SsKind::Transfer;
    tr.transfer_type = TransferType::MemToCompute;
    tr.name = k == 0 ? "Ta" : "Tb";
    tr.cores = {0};
    tr.inputs = {k == 0 ? a : b};
    tr.outputs = {tensor(tr.name + "_out", static_cast<int>(ss.nodes.size()), {0})};
    tr.slot = 1;
    tr.loops = {{0, iterations, LoopEffect::Varying}};
    TransferPlan p;
    p.sources = {1};
    p.targets = {0};
    p.links = {7};
    p.latency = 100;
    p.min_bandwidth = 1;
    tr.plans = {p};
    ss.nodes.push_back(tr);
  }
  return ss;
}
}  // namespace

// Asked for it, an infeasible allocation carries its model as MPS text (report/ writes it): the
// text of the very model build_model gives for the same options (the link conflict itself is a
// constant row, violated before solving, so the file lists the rows that remain); not asked, it
// carries none.
TEST(AllocationMilp, TwoTransfersOnOneLinkInOneSlotAreInfeasibleAndKeepTheirModel) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_single_core.yaml");
  AllocateOptions o;
  o.mps_on_failure = true;
  const auto ss = two_transfers_one_slot(1);
  const auto a = solve(ss, acc, *make_solver("cbc"), o);
  EXPECT_EQ(a.status, SolveStatus::Infeasible);
  EXPECT_NE(a.infeasibility.find("link_contention"), std::string::npos) << a.infeasibility;
  EXPECT_FALSE(a.solved());
  const auto m = build_model(ss, acc, o);
  EXPECT_EQ(a.mps, mps_text(m.model, m.levels.front().expr));
  EXPECT_NE(a.mps.find(" slot_latency lat_Ta_0\n"), std::string::npos) << a.mps;  // Ta's slot row
  EXPECT_TRUE(solve(ss, acc, *make_solver("cbc")).mps.empty());
}

TEST(AllocationMilp, OneTransferPerSlotGivesItsLatencyAndOverlapAcrossIterations) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_single_core.yaml");
  auto ss = two_transfers_one_slot(4);
  ss.nodes[2].slot = 2;  // Tb in its own slot
  ss.max_slot = 2;
  const auto a = solve(ss, acc, *make_solver("cbc"));
  ASSERT_EQ(a.status, SolveStatus::Optimal) << a.infeasibility;
  EXPECT_TRUE(a.solved());
  // Each transfer moves the whole tensor every iteration (its loop is relevant): L1 = L2 = 100.
  EXPECT_EQ(a.slot_latency, (std::vector<std::int64_t>{0, 100, 100}));
  // The link is busy in slots 1 and 2 and idle in slot 0 (0 cycles): no overlap, 4 x 200.
  EXPECT_EQ(a.overlap, 0);
  EXPECT_EQ(a.total_latency, 800);
}

namespace {
// Forwards to CBC and counts the solves.
class CountingSolver : public MilpSolver {
 public:
  mutable int solves = 0;
  std::string name() const override { return "counting"; }
  SolveResult solve(const LinearModel& m, const LinExpr& obj, const SolveOptions& o) const override {
    ++solves;
    return cbc_->solve(m, obj, o);
  }

 private:
  std::unique_ptr<MilpSolver> cbc_ = make_solver("cbc");
};

// two_transfers_one_slot(4) spread over three slots, each produced tensor `tile_bits` large: at
// 5 Mbit the tensors fixed on the single core exceed its memory, at 1 Mbit they fit.
schedule::SteadyState two_transfers_in_three_slots(std::int64_t tile_bits) {
  auto ss = two_transfers_one_slot(4);
  ss.nodes[2].slot = 2;
  ss.max_slot = 2;
  for (auto& t : ss.tensors)
    if (t.producer > 0) t.tile_bits = tile_bits;
  return ss;
}
}  // namespace

// Ta and Tb in their own slots (no link conflict), each writing a 5 Mbit tile into core 0, whose
// top memory holds 8,388,608 bits: both outputs are fixed there, each holds at least one tile, so
// the load is at least 10 Mbit. The bound proves the capacity row violated: the allocation is not
// solved and memory capacity is the only culprit. Core 0 is generic, so the fallback's diagnosis
// (Memory) tries no core and solves nothing; the full one solves one relaxation (core 0's row
// dropped), which is feasible, so core 0 blocks alone.
TEST(AllocationMilp, ACapacityTheFixedTensorsExceedIsInfeasibleWithoutSolvingTheAllocation) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_single_core.yaml");
  const auto ss = two_transfers_in_three_slots(5'000'000);
  CountingSolver solver;
  AllocateOptions o;
  o.diagnosis = Diagnosis::Memory;
  const auto a = solve(ss, acc, solver, o);
  EXPECT_EQ(a.status, SolveStatus::Infeasible);
  EXPECT_TRUE(a.capacity_proved);
  EXPECT_EQ(solver.solves, 0);
  EXPECT_EQ(a.culprit_families, (std::vector<std::string>{"memory_capacity"}));
  EXPECT_TRUE(a.blocking_cores.empty());
  EXPECT_NE(a.infeasibility.find("core 0 needs at least"), std::string::npos) << a.infeasibility;
  EXPECT_NE(a.infeasibility.find("certainly violated"), std::string::npos) << a.infeasibility;
  o.diagnosis = Diagnosis::Full;
  const auto full = solve(ss, acc, solver, o);
  EXPECT_EQ(solver.solves, 1);
  EXPECT_EQ(full.blocking_cores, (std::vector<int>{0}));
  // At 1 Mbit per tile the same model fits and is solved.
  const auto fits = solve(two_transfers_in_three_slots(1'000'000), acc, solver, o);
  EXPECT_EQ(fits.status, SolveStatus::Optimal);
  EXPECT_FALSE(fits.capacity_proved);
}

// The solve's clocks, apart from the allocation: each MILP solve named after what it was, in
// order, as many as the solver was asked for. The over-capacity model above solves one relaxation
// (the diagnosis); at 1 Mbit per tile the three levels are solved, in priority order.
TEST(AllocationMilp, ClocksNameEveryMilpSolveTheSolverWasAskedFor) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_single_core.yaml");
  const auto ss = two_transfers_in_three_slots(5'000'000);
  CountingSolver solver;
  SolveClocks over;
  (void)solve(ss, acc, solver, {}, &over);
  ASSERT_EQ(over.solves.size(), 1u);
  EXPECT_EQ(solver.solves, 1);
  EXPECT_EQ(over.solves[0].what, kDiagnosisSolve);
  EXPECT_EQ(over.solves[0].status, "OPTIMAL");  // without core 0's row the model is feasible
  EXPECT_EQ(over.levels_s(), 0.0);              // no level was solved

  SolveClocks fits;
  const auto a = solve(two_transfers_in_three_slots(1'000'000), acc, solver, {}, &fits);
  ASSERT_TRUE(a.solved());
  EXPECT_EQ(solver.solves, 4);
  std::vector<std::string> what;
  double sum = 0;
  for (const auto& m : fits.solves) {
    what.push_back(m.what);
    EXPECT_EQ(m.status, "OPTIMAL") << m.what;
    EXPECT_GE(m.solve_time_s, 0.0) << m.what;
    sum += m.solve_time_s;
  }
  EXPECT_EQ(what, (std::vector<std::string>{"latency", "offchip_traffic", "buffering"}));
  EXPECT_EQ(fits.level_s("offchip_traffic"), fits.solves[1].solve_time_s);
  EXPECT_EQ(fits.levels_s(), sum);
}

// ---------------- the aie2 constraint families (aie-and-defaults §2.14-§2.20) ----------------

namespace {

// Core 0 shim (off-chip), 1 memory tile (column `mem_col`), 2 and 3 compute tiles; links 0-1,
// 1-2, 0-2, 0-3. `compute_depth` / `mem_depth`: max_object_fifo_depth; `mem_bits`: capacity.
hardware::Accelerator aie2_hw(int compute_depth = 12, int mem_depth = 48, long long mem_bits = 2097152, int mem_col = 0) {
  auto core = [](const std::string& type, int depth, long long bits) {
    return "\n    name: " + type + "\n    type: aie2." + type + "\n    max_object_fifo_depth: " + std::to_string(depth) +
           "\n    memory: {capacity: " + std::to_string(bits) + ", bandwidth_min: 64, bandwidth_max: 64}";
  };
  const std::string text = "name: aie2_families\ncores:\n  0:" + core("shim", 48, 10000000000LL) +
                           "\n  1:" + core("memory", mem_depth, mem_bits) + "\n  2:" + core("compute", compute_depth, 524288) +
                           "\n  3:" + core("compute", compute_depth, 524288) +
                           "\ncore_coordinates: {0: [0, 0], 1: [" + std::to_string(mem_col) +
                           ", 1], 2: [0, 2], 3: [1, 2]}\noffchip_core_id: 0\ncore_connectivity:\n"
                           "  - {type: link, cores: [0, 1], bandwidth: 64}\n"
                           "  - {type: link, cores: [1, 2], bandwidth: 64}\n"
                           "  - {type: link, cores: [0, 2], bandwidth: 64}\n"
                           "  - {type: link, cores: [0, 3], bandwidth: 64}\n"
                           "unit_energy_cost: 0\n";
  return hardware::parse_accelerator_text(text, "aie2_families.yaml", STREAM_TEST_DATA_DIR);
}

hardware::Accelerator zigzag_hw() {
  return hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_dual_core.yaml");
}

const std::vector<TemporalLoop> kVaryingThenInvariant{{0, 8, LoopEffect::Varying}, {1, 4, LoopEffect::Invariant}};

// A hand-built steady state: tensors and nodes added in order; slots given explicitly.
struct Ss {
  SteadyState ss;
  explicit Ss(std::int64_t iterations, int offchip = 0) {
    ss.iterations = iterations;
    ss.offchip_core = offchip;
  }
  int tensor(const std::string& n, int producer, std::vector<std::vector<int>> place, std::vector<TemporalLoop> loops) {
    SsTensor t;
    t.name = n;
    t.bits = 64 * 32;
    t.tile_bits = 64;
    t.producer = producer;
    t.placements = std::move(place);
    t.loops = std::move(loops);
    ss.tensors.push_back(std::move(t));
    return static_cast<int>(ss.tensors.size()) - 1;
  }
  int node(SsNode n) {
    ss.max_slot = std::max(ss.max_slot, n.slot);
    ss.nodes.push_back(std::move(n));
    return static_cast<int>(ss.nodes.size()) - 1;
  }
  /// An in-edge on `core` producing tensor `name`.
  int input(const std::string& name, int core, std::vector<TemporalLoop> loops) {
    SsNode n;
    n.kind = SsKind::InEdge;
    n.name = name + "_in";
    n.cores = {core};
    n.slot = 0;
    const int at = node(n);
    const int t = tensor(name, at, {{core}}, std::move(loops));
    ss.nodes[static_cast<std::size_t>(at)].outputs = {t};
    return t;
  }
  /// A transfer of tensor `in` into a new tensor `out`, one plan per target option.
  int transfer(const std::string& out, TransferType type, int slot, int in, std::vector<std::vector<int>> targets,
               std::vector<int> links, std::int64_t latency, std::vector<TemporalLoop> loops) {
    SsNode n;
    n.kind = SsKind::Transfer;
    n.transfer_type = type;
    n.name = "Transfer(" + ss.tensors[static_cast<std::size_t>(in)].name + "->" + out + ")";
    n.inputs = {in};
    n.slot = slot;
    n.loops = loops;
    for (std::size_t k = 0; k < targets.size(); ++k) {
      TransferPlan p;
      p.sources = ss.tensors[static_cast<std::size_t>(in)].placements.front();
      p.targets = targets[k];
      p.links = {links[k]};
      p.latency = latency;
      p.min_bandwidth = 64;
      n.plans.push_back(p);
    }
    const int at = node(n);
    ss.nodes[static_cast<std::size_t>(at)].outputs = {tensor(out, at, std::move(targets), std::move(loops))};
    return ss.nodes[static_cast<std::size_t>(at)].outputs.front();
  }
  void compute(const std::string& name, int slot, int core, std::vector<int> inputs, std::int64_t latency) {
    SsNode n;
    n.kind = SsKind::Compute;
    n.name = name;
    n.slot = slot;
    n.cores = {core};
    n.inputs = std::move(inputs);
    n.lut_latency = static_cast<double>(latency);
    n.active_latency = latency;
    (void)node(n);
  }
};

ConstraintSelection only(bool fifo, bool bd, bool dma) {
  ConstraintSelection s;
  s.object_fifo_depth = fifo;
  s.buffer_descriptors = bd;
  s.dma_channels = dma;
  return s;
}

Allocation run(const SteadyState& ss, const hardware::Accelerator& acc, ConstraintSelection sel, int nb_cols = 4) {
  AllocateOptions o;
  o.constraints = sel;
  o.nb_cols_to_use = nb_cols;
  return solve(ss, acc, *make_solver("cbc"), o);
}

int stop(const SteadyState& ss, const Allocation& a, const std::string& t) {
  return a.reuse_stop.at(static_cast<std::size_t>(ss.tensor_index(t)));
}

// W on the shim goes to compute tile 2 (link 2, 800 cycles raw) and Op (10 cycles) reads it.
// W_1's loops, innermost first: n 8 VARYING, k 4 INVARIANT, so per stop level sigma = -1, 0, 1:
// R = 1, 1, 4 and TN = 2 (double buffering), 8, 8. 32 iterations.
SteadyState fifo_case() {
  Ss b(32);
  const int w = b.input("W", 0, kVaryingThenInvariant);
  const int w1 = b.transfer("W_1", TransferType::MemToCompute, 1, w, {{2}}, {2}, 800, kVaryingThenInvariant);
  b.compute("Op", 2, 2, {w1}, 10);
  return b.ss;
}

}  // namespace

TEST(Aie2Families, ObjectFifoDepthCapsTheTilesACoreReceives) {
  // Uncapped (depth 12 >= 8): sigma 1, L = [0, 800/4 = 200, 10], P = 210; the link idles in slots
  // 0 and 2 (10), the core in 0 and 1 (200): overlap 10, total 32 x 210 - 31 x 10 = 6410.
  const auto ss = fifo_case();
  const auto free = run(ss, aie2_hw(12), only(true, false, false));
  ASSERT_EQ(free.status, SolveStatus::Optimal) << free.infeasibility;
  EXPECT_EQ(stop(ss, free, "W_1"), 1);
  EXPECT_EQ(free.total_latency, 6410);
  // Depth 7: 8 tiles do not fit, only sigma -1 (2 tiles): L1 = 800, P = 810, overlap still 10:
  // 32 x 810 - 31 x 10 = 25610.
  const auto capped = run(ss, aie2_hw(7), only(true, false, false));
  ASSERT_EQ(capped.status, SolveStatus::Optimal) << capped.infeasibility;
  EXPECT_EQ(stop(ss, capped, "W_1"), -1);
  EXPECT_EQ(capped.tiles_on_chip.at(static_cast<std::size_t>(ss.tensor_index("W_1"))), 2);
  EXPECT_EQ(capped.total_latency, 25610);
  // Switched off, depth 7 binds nothing.
  EXPECT_EQ(run(ss, aie2_hw(7), only(false, false, false)).total_latency, 6410);
}

TEST(Aie2Families, BufferDescriptorsOnAComputeTileCountItsTiles) {
  // On a compute tile a transfer's tensor costs TN descriptors, the same sum as the FIFO depth
  // for a received tensor: depth 7 alone forces sigma -1 again (25610, derivation above).
  const auto ss = fifo_case();
  const auto capped = run(ss, aie2_hw(7), only(false, true, false));
  ASSERT_EQ(capped.status, SolveStatus::Optimal) << capped.infeasibility;
  EXPECT_EQ(capped.total_latency, 25610);
  EXPECT_EQ(run(ss, aie2_hw(7), only(false, false, false)).total_latency, 6410);
}

TEST(Aie2Families, BufferDescriptorsOnAMemoryTileChargeLevelsWhereThePartnerStreams) {
  // W (shim, loops n 8 and k 4 both VARYING: R = 1 everywhere, TN = 2, 8, 32) -> memory tile 1
  // (W_1, loops n 8 VARYING, k 4 INVARIANT: R = 1, 1, 4; BD = 1, 1, 4) -> compute tile 2 (W_2,
  // same loops). Latency wants W_1 and W_2 at sigma 1 (R 4); buffering wants W at sigma -1
  // (2 tiles). The memory tile pays BD[W_1, 1] = 4 when W (the partner of the shim->memory
  // transfer) is not stopped at 1, and nothing for W_2, whose stop the memory-tile equality ties
  // to W_1's. Depth 48: W at -1. Depth 3 (< 4): W must stop at 1 too; the latency is the same.
  Ss b(32);
  const std::vector<TemporalLoop> varying{{0, 8, LoopEffect::Varying}, {1, 4, LoopEffect::Varying}};
  const int w = b.input("W", 0, varying);
  const int w1 = b.transfer("W_1", TransferType::MemToMem, 1, w, {{1}}, {0}, 800, kVaryingThenInvariant);
  const int w2 = b.transfer("W_2", TransferType::MemToCompute, 2, w1, {{2}}, {1}, 800, kVaryingThenInvariant);
  b.compute("Op", 3, 2, {w2}, 10);
  const auto& ss = b.ss;
  const auto roomy = run(ss, aie2_hw(12, 48), only(false, true, false));
  ASSERT_EQ(roomy.status, SolveStatus::Optimal) << roomy.infeasibility;
  EXPECT_EQ(stop(ss, roomy, "W_1"), 1);
  EXPECT_EQ(stop(ss, roomy, "W_2"), 1);
  EXPECT_EQ(stop(ss, roomy, "W"), -1);
  const auto tight = run(ss, aie2_hw(12, 3), only(false, true, false));
  ASSERT_EQ(tight.status, SolveStatus::Optimal) << tight.infeasibility;
  EXPECT_EQ(stop(ss, tight, "W_1"), 1);
  EXPECT_EQ(stop(ss, tight, "W"), 1);
  EXPECT_EQ(tight.total_latency, roomy.total_latency);
  // The BD definition itself: a running product of irrelevant sizes, reset at a relevant loop.
  SsTensor t;
  t.loops = {{0, 3, LoopEffect::Invariant}, {1, 2, LoopEffect::Invariant}, {2, 5, LoopEffect::Varying},
             {3, 7, LoopEffect::Invariant}};
  EXPECT_EQ(reuse_levels(t, true).descriptors, (std::vector<std::int64_t>{1, 3, 6, 1, 7}));
}

namespace {
// Nine one-iteration transfers from the off-chip core into `core` (one slot each, 100 cycles,
// link 2).
SteadyState nine_into(int core, int offchip = 0) {
  Ss b(1, offchip);
  const std::vector<TemporalLoop> once{{0, 1, LoopEffect::Varying}};
  for (int k = 0; k < 9; ++k) {
    const int in = b.input("X" + std::to_string(k), offchip, once);
    (void)b.transfer("X" + std::to_string(k) + "_1", TransferType::MemToCompute, k + 1, in, {{core}}, {2}, 100, once);
  }
  return b.ss;
}
}  // namespace

TEST(Aie2Families, DmaChannelCapsAreEightInOnAComputeTile) {
  // Nine transfers write into compute tile 2: coreDmaIn(2) = 9 > 8, infeasible, and the
  // diagnosis names the family; without it the nine run back to back: 900 cycles.
  const auto ss = nine_into(2);
  const auto a = run(ss, aie2_hw(), only(false, false, true));
  EXPECT_EQ(a.status, SolveStatus::Infeasible);
  EXPECT_NE(a.infeasibility.find("aie2_dma_in_Core_2"), std::string::npos) << a.infeasibility;
  const auto off = run(ss, aie2_hw(), only(false, false, false));
  ASSERT_EQ(off.status, SolveStatus::Optimal) << off.infeasibility;
  EXPECT_EQ(off.total_latency, 900);
}

TEST(Aie2Families, DmaChannelMaximaBreakLatencyTiesOnZigzagHardwareToo) {
  // Eyeriss dual core (zigzag, off-chip core 4): A and B go from core 4 to core 0 or 1 (one plan
  // each, links 10/11), one iteration, so the total is 100 + 100 = 200 either way. The largest
  // per-core DMA-in count joins the first level: 1 when they go to different cores (200 + 1 +
  // 0; nothing leaves an on-chip core), 2 otherwise. No cap on zigzag hardware.
  Ss b(1, 4);
  const std::vector<TemporalLoop> once{{0, 1, LoopEffect::Varying}};
  const int a = b.input("A", 4, once), c = b.input("B", 4, once);
  (void)b.transfer("A_1", TransferType::MemToCompute, 1, a, {{0}, {1}}, {10, 11}, 100, once);
  (void)b.transfer("B_1", TransferType::MemToCompute, 2, c, {{0}, {1}}, {10, 11}, 100, once);
  const auto& ss = b.ss;
  const auto r = run(ss, zigzag_hw(), {});
  ASSERT_EQ(r.status, SolveStatus::Optimal) << r.infeasibility;
  EXPECT_EQ(r.total_latency, 200);
  EXPECT_EQ(r.max_dma_in, 1);
  EXPECT_EQ(r.max_dma_out, 0);
  ASSERT_FALSE(r.level_objectives.empty());
  EXPECT_DOUBLE_EQ(r.level_objectives[0], 201);
  EXPECT_NE(r.placement[static_cast<std::size_t>(ss.tensor_index("A_1"))],
            r.placement[static_cast<std::size_t>(ss.tensor_index("B_1"))]);
  const auto off = run(ss, zigzag_hw(), only(true, true, false));
  EXPECT_DOUBLE_EQ(off.level_objectives.at(0), 200);
  // Nine into a zigzag core: no cap, 900.
  EXPECT_EQ(run(nine_into(0, 4), zigzag_hw(), {}).total_latency, 900);
}

TEST(Aie2Families, MemoryTileKeepsATensorExactlyAsLongAsItsComputeCopy) {
  // Memory tile 1 -> compute tile 2 with W_2's 8-tile level not fitting compute memory: tile 2
  // holds 524288 bits; W_2 tiles are 64 bits, so make the compute copy's capacity bind through
  // its FIFO depth (7 < 8: W_2 at sigma -1). W (shim) -> W_1 (memory, link 0, 800 raw) -> W_2
  // (compute, link 1, 800 raw), loops n 8 VARYING, k 4 INVARIANT (R = 1, 1, 4).
  // Generic rule (no memory cores in the first nb_cols_to_use columns): W_1 may stop later than
  // W_2: W_1 at 1, L = [0, 200, 800, 10], P = 1010. aie2 with the memory tile present: W_1 ==
  // W_2 = -1, L = [0, 800, 800, 10], P = 1610. Overlap: link 0 idles in slots 0, 2, 3, link 1 in
  // 0, 1, 3, the core in 0-2: min(810, 210, 1000) = 210 (generic) and min(810, 810, 1600) = 810:
  // 32 x 1010 - 31 x 210 = 25810 and 32 x 1610 - 31 x 810 = 26410.
  Ss b(32);
  const int w = b.input("W", 0, kVaryingThenInvariant);
  const int w1 = b.transfer("W_1", TransferType::MemToMem, 1, w, {{1}}, {0}, 800, kVaryingThenInvariant);
  const int w2 = b.transfer("W_2", TransferType::MemToCompute, 2, w1, {{2}}, {1}, 800, kVaryingThenInvariant);
  b.compute("Op", 3, 2, {w2}, 10);
  const auto& ss = b.ss;
  const auto generic = run(ss, aie2_hw(7, 48, 2097152, /*mem_col=*/2), only(true, false, false), /*nb_cols=*/1);
  ASSERT_EQ(generic.status, SolveStatus::Optimal) << generic.infeasibility;
  EXPECT_EQ(stop(ss, generic, "W_2"), -1);
  EXPECT_EQ(stop(ss, generic, "W_1"), 1);
  EXPECT_EQ(generic.total_latency, 25810);
  const auto equal = run(ss, aie2_hw(7, 48, 2097152, 2), only(true, false, false), 4);
  ASSERT_EQ(equal.status, SolveStatus::Optimal) << equal.infeasibility;
  EXPECT_EQ(stop(ss, equal, "W_1"), -1);
  EXPECT_EQ(equal.total_latency, 26410);
}

TEST(Aie2Families, TheStrategyFollowsTheNamespacesOfConnectedCores) {
  // aie2 hardware switches the strategy on; zigzag hardware leaves the FIFO and descriptor rows
  // out entirely (the depth-7 core of fifo_case would bind; here the ids are zigzag cores).
  EXPECT_TRUE(build_model(fifo_case(), aie2_hw()).aie2);
  const auto zz = build_model(nine_into(0, 4), zigzag_hw());
  EXPECT_FALSE(zz.aie2);
  for (const auto& r : zz.model.rows()) {
    EXPECT_NE(r.family, "object_fifo_depth") << r.name;
    EXPECT_NE(r.family, "buffer_descriptors") << r.name;
    EXPECT_EQ(r.name.find("aie2_"), std::string::npos) << r.name;
  }
  // The selection's switches are recorded as skipped families.
  AllocateOptions o;
  o.constraints = parse_constraint_selection("dma_channels=off,memory_capacity=off");
  const auto m = build_model(fifo_case(), aie2_hw(), o);
  EXPECT_EQ(m.skipped_families, (std::vector<std::string>{"memory_capacity", "dma_channels"}));
  EXPECT_EQ(m.max_dma_in.index, -1);
}

namespace {
// Ta (slot 1) and Tb (slot 3) share link 7 into compute core 0; Op (slot 2, 50 cycles) on core 0
// between them. 4 iterations, every loop relevant (R = 1): L = [0, 100, 50, 100], P = 250.
SteadyState gap_case() {
  Ss b(4, 4);
  const std::vector<TemporalLoop> four{{0, 4, LoopEffect::Varying}};
  const int a = b.input("A", 4, four), c = b.input("B", 4, four);
  const int a1 = b.transfer("A_1", TransferType::MemToCompute, 1, a, {{0}}, {7}, 100, four);
  b.compute("Op", 2, 0, {a1}, 50);
  (void)b.transfer("B_1", TransferType::MemToCompute, 3, c, {{0}}, {7}, 100, four);
  return b.ss;
}
}  // namespace

TEST(Aie2Families, OccupancyCountsGapsSpanDoesNot) {
  // OCCUPANCY: link 7 idles in slots 0 and 2 (50), core 0 in 0, 1, 3 (200): overlap 50,
  // 4 x 250 - 3 x 50 = 850. SPAN: link 7 is idle only before its first use (slot 0, 0 cycles)
  // and never after its last: overlap 0, 4 x 250 = 1000.
  const auto ss = gap_case();
  const auto occ = run(ss, zigzag_hw(), {});
  ASSERT_EQ(occ.status, SolveStatus::Optimal) << occ.infeasibility;
  EXPECT_EQ(occ.overlap, 50);
  EXPECT_EQ(occ.total_latency, 850);
  const auto span = run(ss, zigzag_hw(), parse_constraint_selection("pipelining=span"));
  ASSERT_EQ(span.status, SolveStatus::Optimal) << span.infeasibility;
  EXPECT_EQ(span.overlap, 0);
  EXPECT_EQ(span.total_latency, 1000);
}

TEST(Aie2Families, SpanCountsOnlyBeforeTheFirstAndAfterTheLastUse) {
  // A_1 may go over link 7 or link 9 (two plans, same latency). Under SPAN the unused link is
  // idle for the whole iteration (P) and the used one only outside its uses. With both transfers
  // on link 7 (slots 1 and 3) its span idle is 0; moving B_1 to link 9 (slot 3 only) makes link
  // 7 idle after slot 1 (50 + 100) and link 9 before slot 3 (0 + 100 + 50): overlap
  // min(150, 150, core 200) = 150, 4 x 250 - 3 x 150 = 550, the optimum.
  Ss b(4, 4);
  const std::vector<TemporalLoop> four{{0, 4, LoopEffect::Varying}};
  const int a = b.input("A", 4, four), c = b.input("B", 4, four);
  const int a1 = b.transfer("A_1", TransferType::MemToCompute, 1, a, {{0}}, {7}, 100, four);
  b.compute("Op", 2, 0, {a1}, 50);
  auto& tb = b.ss.nodes[static_cast<std::size_t>(b.ss.tensors[static_cast<std::size_t>(
      b.transfer("B_1", TransferType::MemToCompute, 3, c, {{0}}, {7}, 100, four))].producer)];
  tb.plans.push_back(tb.plans.front());
  tb.plans.back().links = {9};
  const auto span = run(b.ss, zigzag_hw(), parse_constraint_selection("pipelining=span"));
  ASSERT_EQ(span.status, SolveStatus::Optimal) << span.infeasibility;
  EXPECT_EQ(span.overlap, 150);
  EXPECT_EQ(span.total_latency, 550);
}

TEST(ConstraintSelection, ParsesFieldsAndRejectsBadOnes) {
  const auto s = parse_constraint_selection(" pipelining=SPAN, dma_channels=off ,object_fifo_depth=false");
  EXPECT_EQ(s.pipelining, PipeliningModel::Span);
  EXPECT_FALSE(s.dma_channels);
  EXPECT_FALSE(s.object_fifo_depth);
  EXPECT_TRUE(s.buffer_descriptors);
  EXPECT_TRUE(s.memory_capacity);
  EXPECT_EQ(parse_constraint_selection(""), ConstraintSelection{});
  EXPECT_EQ(to_string(ConstraintSelection{}),
            "memory_capacity=on,object_fifo_depth=on,buffer_descriptors=on,dma_channels=on,pipelining=occupancy");
  auto message = [](const std::string& spec) {
    try {
      (void)parse_constraint_selection(spec);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("pipelining=fast").find("occupancy or span"), std::string::npos);
  EXPECT_NE(message("dma=off").find("unknown constraint selection field 'dma'"), std::string::npos);
  EXPECT_NE(message("dma_channels=maybe").find("on or off"), std::string::npos);
  EXPECT_NE(message("pipelining").find("field=value"), std::string::npos);
}

// ---------------- staging through memory cores (spec §4.8) ----------------

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

// Each L_s is bounded by what its own nodes can ask (the Gemm's 1,000 in slot 4, a transfer
// plan's cycles elsewhere), not by the largest latency of the whole group: the big-M products of
// the overlap stay tight, and the optimum above stays inside the bounds.
TEST(StagingAllocation, EachSlotLatencyIsBoundedByItsOwnNodes) {
  const auto acc = test::staging_accelerator();
  const auto ss = steady_state(test::staging_tiled(test::staging_gemm()), test::staging_costs(1000), acc);
  const auto m = allocate::build_model(ss, acc);
  const auto a = allocate::solve(ss, acc, *allocate::make_solver("cbc"));
  ASSERT_EQ(m.slot_latency.size(), a.slot_latency.size());
  for (std::size_t s = 0; s < m.slot_latency.size(); ++s) {
    const double hi = m.model.vars()[static_cast<std::size_t>(m.slot_latency[s].index)].hi;
    EXPECT_GE(hi, static_cast<double>(a.slot_latency[s])) << "slot " << s;
    if (s == 4) EXPECT_EQ(hi, 1000.0);
    else EXPECT_LT(hi, 1000.0) << "slot " << s;  // transfers only: 64-bit or 32-bit links, at most 8,192 bits
  }
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
  const auto acc = hardware::load_accelerator(std::string(STREAM_TEST_DATA_DIR) +
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
