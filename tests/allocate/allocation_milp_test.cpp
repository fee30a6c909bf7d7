// The solver interface, the lexicographic solve and the TETRA pieces on hand-derived small cases.
#include <gtest/gtest.h>

#include <filesystem>

#include <stream/allocate/allocation_milp.hpp>
#include <stream/hardware/accelerator_reader.hpp>

using namespace stream;
using namespace stream::allocate;

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

TEST(AllocationMilp, TwoTransfersOnOneLinkInOneSlotAreInfeasibleAndWriteMps) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_single_core.yaml");
  AllocateOptions o;
  o.mps_on_failure = (std::filesystem::path(STREAM_BUILD_DIR) / "test_scratch" / "allocate" / "model.mps").string();
  std::filesystem::remove(o.mps_on_failure);
  const auto a = solve(two_transfers_one_slot(1), acc, *make_solver("cbc"), o);
  EXPECT_EQ(a.status, SolveStatus::Infeasible);
  EXPECT_NE(a.infeasibility.find("link_contention"), std::string::npos) << a.infeasibility;
  EXPECT_TRUE(a.slot_latency.empty());
  EXPECT_TRUE(std::filesystem::exists(o.mps_on_failure));
}

TEST(AllocationMilp, OneTransferPerSlotGivesItsLatencyAndOverlapAcrossIterations) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_single_core.yaml");
  auto ss = two_transfers_one_slot(4);
  ss.nodes[2].slot = 2;  // Tb in its own slot
  ss.max_slot = 2;
  const auto a = solve(ss, acc, *make_solver("cbc"));
  ASSERT_EQ(a.status, SolveStatus::Optimal) << a.infeasibility;
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
  void write_mps(const LinearModel& m, const LinExpr& obj, const std::string& path) const override {
    cbc_->write_mps(m, obj, path);
  }

 private:
  std::unique_ptr<MilpSolver> cbc_ = make_solver("cbc");
};
}  // namespace

// Ta and Tb in their own slots (no link conflict), each writing a 5 Mbit tile into core 0, whose
// top memory holds 8,388,608 bits: both outputs are fixed there, each holds at least one tile, so
// the load is at least 10 Mbit. The bound proves the capacity row violated: the allocation is not
// solved and memory capacity is the only culprit. Core 0 is generic, so the fallback's diagnosis
// (Memory) tries no core and solves nothing; the full one solves one relaxation (core 0's row
// dropped), which is feasible, so core 0 blocks alone.
TEST(AllocationMilp, ACapacityTheFixedTensorsExceedIsInfeasibleWithoutSolvingTheAllocation) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/eyeriss_like_single_core.yaml");
  auto ss = two_transfers_one_slot(4);
  ss.nodes[2].slot = 2;
  ss.max_slot = 2;
  for (auto& t : ss.tensors)
    if (t.producer > 0) t.tile_bits = 5'000'000;
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
  for (auto& t : ss.tensors)
    if (t.producer > 0) t.tile_bits = 1'000'000;
  const auto fits = solve(ss, acc, solver, o);
  EXPECT_EQ(fits.status, SolveStatus::Optimal);
  EXPECT_FALSE(fits.capacity_proved);
}
