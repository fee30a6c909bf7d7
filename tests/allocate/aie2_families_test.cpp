// The aie2 constraint families of the allocation MILP and the ConstraintSelection
// (aie-and-defaults §2.14-§2.20), each on a small hand-built steady state whose optimum is derived
// in the test's comment: object-FIFO depth, buffer descriptors, DMA channels (caps and the
// objective term), the memory-tile reuse equality, the namespace switch, and the two pipelining
// models. Solving is exact (CBC), so every figure is asserted exactly.
#include <gtest/gtest.h>

#include <stream/allocate/allocation_milp.hpp>
#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>

using namespace stream;
using namespace stream::allocate;
using namespace stream::schedule;

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
  return hardware::parse_accelerator_text(text, "aie2_families.yaml", STREAM_SHARED_DIR);
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
