// Staging of transfers through memory cores (spec §4.5 build_transfer_graph / update_mapping,
// §4.6 iteration spaces, §4.7 slots) on the hand-made accelerator of staging_fixture.hpp.
#include <gtest/gtest.h>

#include <stdexcept>

#include <stream/schedule/steady_state.hpp>

#include "staging_fixture.hpp"
#include "two_conv_fixture.hpp"

using namespace stream;
using namespace stream::schedule;

namespace {

using Groups = std::vector<std::vector<int>>;

const SsNode& node(const SteadyState& ss, const std::string& name) {
  const int i = ss.node_index(name);
  if (i < 0) throw std::runtime_error("no node " + name);
  return ss.nodes[static_cast<std::size_t>(i)];
}
const SsTensor& tensor(const SteadyState& ss, const std::string& name) {
  const int i = ss.tensor_index(name);
  if (i < 0) throw std::runtime_error("no tensor " + name);
  return ss.tensors[static_cast<std::size_t>(i)];
}
std::vector<std::string> tensor_names(const SteadyState& ss, const std::vector<int>& ids) {
  std::vector<std::string> out;
  for (int t : ids) out.push_back(ss.tensors[static_cast<std::size_t>(t)].name);
  return out;
}
Groups plan_sources(const SsNode& n) {
  Groups g;
  for (const auto& p : n.plans) g.push_back(p.sources);
  return g;
}
Groups plan_targets(const SsNode& n) {
  Groups g;
  for (const auto& p : n.plans) g.push_back(p.targets);
  return g;
}

}  // namespace

TEST(Staging, MemoryCoresAreTheMemoryKindBelowTheColumnLimit) {
  auto acc = test::staging_accelerator();
  // Core 4 sits in column 4; the shim (0) is the off-chip core and not of kind memory anyway.
  EXPECT_EQ(staging_memory_cores(acc), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(staging_memory_cores(acc, 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(staging_memory_cores(acc, 5), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_TRUE(staging_memory_cores(acc, 0).empty());
  acc.coordinates.clear();  // without coordinates every memory core is usable
  EXPECT_EQ(staging_memory_cores(acc), (std::vector<int>{1, 2, 3, 4}));
}

TEST(Staging, MemoryCoreCombinationsFollowTheReferenceCount) {
  auto acc = test::staging_accelerator();
  const std::vector<int> mem{1, 2, 3};
  // From the off-chip core (one column), no unrolling: one memory core, each on its own.
  EXPECT_EQ(memory_core_combinations(acc, mem, {0}, 1, TransferType::MemToMem), (Groups{{1}, {2}, {3}}));
  // From cores 5, 6 (columns 0 and 1) unrolled 2: min(2 columns, 2) = 2 cores, C(3, 2) in order.
  EXPECT_EQ(memory_core_combinations(acc, mem, {5, 6}, 2, TransferType::ComputeToMem),
            (Groups{{1, 2}, {1, 3}, {2, 3}}));
  // Unrolled 8 over two columns: 2 (a divisor of 8).
  EXPECT_EQ(memory_core_combinations(acc, mem, {5, 6}, 8, TransferType::ComputeToMem).front(), (std::vector<int>{1, 2}));
  // Unrolled 3 over two columns: 2 does not divide 3, snapped down to 1.
  EXPECT_EQ(memory_core_combinations(acc, mem, {5, 6}, 3, TransferType::ComputeToMem), (Groups{{1}, {2}, {3}}));
  // Unrolled 1: a single core whatever the columns.
  EXPECT_EQ(memory_core_combinations(acc, mem, {5, 6}, 1, TransferType::ComputeToMem).size(), 3u);
  EXPECT_TRUE(memory_core_combinations(acc, {}, {5, 6}, 2, TransferType::ComputeToMem).empty());

  // Without coordinates: ceil(unrolling / 4) for COMPUTE_TO_MEM, unrolling for MEM_TO_MEM.
  acc.coordinates.clear();
  const std::vector<int> four{1, 2, 3, 4};
  EXPECT_EQ(memory_core_combinations(acc, four, {5, 6}, 8, TransferType::ComputeToMem),
            (Groups{{1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}));
  EXPECT_EQ(memory_core_combinations(acc, four, {5, 6}, 4, TransferType::ComputeToMem), (Groups{{1}, {2}, {3}, {4}}));
  EXPECT_EQ(memory_core_combinations(acc, four, {5, 6}, 4, TransferType::MemToMem), (Groups{{1, 2, 3, 4}}));
  // 3 = ceil(12 / 4) divides 12: C(4, 3) = 4 groups.
  EXPECT_EQ(memory_core_combinations(acc, four, {5, 6}, 12, TransferType::ComputeToMem),
            (Groups{{1, 2, 3}, {1, 2, 4}, {1, 3, 4}, {2, 3, 4}}));
  // More cores required than there are: all of them (4 divides 16).
  EXPECT_EQ(memory_core_combinations(acc, four, {5, 6}, 16, TransferType::MemToMem), (Groups{{1, 2, 3, 4}}));
}

TEST(Staging, GemmInputsAndOutputGoThroughMemoryCores) {
  const auto acc = test::staging_accelerator();
  const auto ss = add_transfers(test::staging_tiled(test::staging_gemm()), acc);
  std::vector<std::string> names;
  std::vector<std::string> types;
  for (const auto& n : ss.nodes) {
    names.push_back(n.name);
    if (n.kind == SsKind::Transfer) types.emplace_back(name(n.transfer_type));
  }
  // X and W are reused on chip (the Gemm walks n, which X lacks, and m, which W lacks): two
  // transfers each; the output is gathered into memory and then written off-chip.
  EXPECT_EQ(names, (std::vector<std::string>{"X", "W", "Gemm", "Y_edge", "Transfer(X)", "Transfer(X_1)", "Transfer(W)",
                                             "Transfer(W_1)", "Transfer(Y_1)", "Transfer(Y_2)"}));
  EXPECT_EQ(types, (std::vector<std::string>{"MEM_TO_MEM", "MEM_TO_COMPUTE", "MEM_TO_MEM", "MEM_TO_COMPUTE",
                                             "COMPUTE_TO_MEM", "MEM_TO_MEM"}));

  // Inputs and outputs of every transfer, and the Gemm now reading X_2, W_2 and writing Y_1.
  EXPECT_EQ(tensor_names(ss, node(ss, "Gemm").inputs), (std::vector<std::string>{"X_2", "W_2"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Gemm").outputs), (std::vector<std::string>{"Y_1"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Transfer(X)").inputs), (std::vector<std::string>{"X"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Transfer(X)").outputs), (std::vector<std::string>{"X_1"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Transfer(X_1)").outputs), (std::vector<std::string>{"X_2"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Transfer(Y_1)").inputs), (std::vector<std::string>{"Y_1"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Transfer(Y_1)").outputs), (std::vector<std::string>{"Y_2"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Transfer(Y_2)").outputs), (std::vector<std::string>{"Y"}));
  EXPECT_EQ(tensor(ss, "Y").producer, ss.node_index("Transfer(Y_2)"));
  EXPECT_EQ(tensor(ss, "Y_1").producer, ss.node_index("Gemm"));

  // Placement options (P_t). What comes from off-chip is counted on its widest consumer (the
  // Gemm, cores 5 and 6 in columns 0 and 1, split 2 along n): X lacks n, one memory core; W has
  // n, min(2 columns, 2) = 2 cores. The output, unrolled 2 over the same columns: pairs too.
  EXPECT_EQ(tensor(ss, "X_1").placements, (Groups{{1}, {2}, {3}}));
  EXPECT_EQ(tensor(ss, "W_1").placements, (Groups{{1, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(tensor(ss, "X_2").placements, (Groups{{5, 6}}));
  EXPECT_EQ(tensor(ss, "W_2").placements, (Groups{{5, 6}}));
  EXPECT_EQ(tensor(ss, "Y_1").placements, (Groups{{5, 6}}));
  EXPECT_EQ(tensor(ss, "Y_2").placements, (Groups{{1, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(tensor(ss, "Y").placements, (Groups{{0}}));

  // Per-core tiles: a whole X on its memory core, half of W and of Y on each of two; the Gemm's
  // split along n halves W (and Y) but not X.
  EXPECT_EQ(tensor(ss, "X_1").tile_bits, 4096);
  EXPECT_EQ(tensor(ss, "W_1").tile_bits, 4096);
  EXPECT_EQ(tensor(ss, "X_2").tile_bits, 4096);
  EXPECT_EQ(tensor(ss, "W_2").tile_bits, 4096);
  EXPECT_EQ(tensor(ss, "Y_1").tile_bits, 4096);
  EXPECT_EQ(tensor(ss, "Y_2").tile_bits, 4096);

  // One plan per (source group, target group).
  EXPECT_EQ(plan_sources(node(ss, "Transfer(X)")), (Groups{{0}, {0}, {0}}));
  EXPECT_EQ(plan_targets(node(ss, "Transfer(X)")), (Groups{{1}, {2}, {3}}));
  EXPECT_EQ(plan_sources(node(ss, "Transfer(X_1)")), (Groups{{1}, {2}, {3}}));
  EXPECT_EQ(plan_targets(node(ss, "Transfer(X_1)")), (Groups{{5, 6}, {5, 6}, {5, 6}}));
  EXPECT_EQ(plan_sources(node(ss, "Transfer(W_1)")), (Groups{{1, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(plan_sources(node(ss, "Transfer(Y_1)")), (Groups{{5, 6}, {5, 6}, {5, 6}}));
  EXPECT_EQ(plan_targets(node(ss, "Transfer(Y_1)")), (Groups{{1, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(plan_sources(node(ss, "Transfer(Y_2)")), (Groups{{1, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(plan_targets(node(ss, "Transfer(Y_2)")), (Groups{{0}, {0}, {0}}));
  EXPECT_EQ(node(ss, "Transfer(Y_1)").cores, (std::vector<int>{1, 2, 3}));

  // Latencies: whole tensor over the slowest link. Shim links 64, memory-to-compute links 32
  // (every plan into {5, 6} crosses 1-5 and 2-6, the tree's only ways in).
  for (const auto& p : node(ss, "Transfer(X)").plans) EXPECT_EQ(p.latency, 4096 / 64);
  for (const auto& p : node(ss, "Transfer(W)").plans) EXPECT_EQ(p.latency, 8192 / 64);
  for (const auto& p : node(ss, "Transfer(X_1)").plans) EXPECT_EQ(p.latency, 4096 / 32);
  for (const auto& p : node(ss, "Transfer(W_1)").plans) EXPECT_EQ(p.latency, 8192 / 32);
  for (const auto& p : node(ss, "Transfer(Y_1)").plans) EXPECT_EQ(p.latency, 8192 / 32);
  for (const auto& p : node(ss, "Transfer(Y_2)").plans) EXPECT_EQ(p.latency, 8192 / 64);
  // From memory core 2 to {5, 6}: 2-0-1-5 and 2-6, four directed edges.
  const auto& from2 = node(ss, "Transfer(X_1)").plans[1];
  EXPECT_EQ(from2.paths, (Groups{{2, 0, 1, 5}, {2, 6}}));
  EXPECT_EQ(from2.links, (std::vector<int>{acc.edge(2, 0), acc.edge(0, 1), acc.edge(1, 5), acc.edge(2, 6)}));
}

TEST(Staging, InputsNotReusedOnChipAndIntermediatesMoveDirectly) {
  const auto acc = test::staging_accelerator();
  const auto ss = add_transfers(test::staging_tiled(test::staging_gemm_add()), acc);
  std::vector<std::string> transfers;
  for (const auto& n : ss.nodes)
    if (n.kind == SsKind::Transfer) transfers.push_back(n.name + " " + name(n.transfer_type));
  // B spans both dims of the Add (m, n): nothing to reuse, one transfer straight to the cores.
  EXPECT_EQ(transfers, (std::vector<std::string>{"Transfer(X) MEM_TO_MEM", "Transfer(X_1) MEM_TO_COMPUTE",
                                                 "Transfer(W) MEM_TO_MEM", "Transfer(W_1) MEM_TO_COMPUTE",
                                                 "Transfer(Y) COMPUTE_TO_COMPUTE", "Transfer(B) MEM_TO_COMPUTE",
                                                 "Transfer(Z_1) COMPUTE_TO_MEM", "Transfer(Z_2) MEM_TO_MEM"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Transfer(B)").outputs), (std::vector<std::string>{"B_1"}));
  EXPECT_EQ(tensor(ss, "B_1").placements, (Groups{{5, 6}}));
  EXPECT_EQ(plan_sources(node(ss, "Transfer(B)")), (Groups{{0}}));
  EXPECT_EQ(tensor(ss, "Y_1").placements, (Groups{{5, 6}}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Add").inputs), (std::vector<std::string>{"Y_1", "B_1"}));
  EXPECT_EQ(tensor(ss, "Z_2").placements, (Groups{{1, 2}, {1, 3}, {2, 3}}));
}

TEST(Staging, WithoutUsableMemoryCoresTransfersAreDirect) {
  const auto acc = test::staging_accelerator();
  const auto ss = add_transfers(test::staging_tiled(test::staging_gemm()), acc, /*nb_cols_to_use=*/0);
  std::vector<std::string> transfers;
  for (const auto& n : ss.nodes)
    if (n.kind == SsKind::Transfer) transfers.push_back(n.name + " " + name(n.transfer_type));
  EXPECT_EQ(transfers, (std::vector<std::string>{"Transfer(X) MEM_TO_COMPUTE", "Transfer(W) MEM_TO_COMPUTE",
                                                 "Transfer(Y_1) COMPUTE_TO_MEM"}));
  EXPECT_EQ(tensor(ss, "Y").placements, (Groups{{0}}));
  EXPECT_EQ(tensor(ss, "X_1").placements, (Groups{{5, 6}}));
  EXPECT_EQ(node(ss, "Transfer(Y_1)").plans.size(), 1u);
}

TEST(Staging, IterationSpacesOfStagedTransfers) {
  const auto acc = test::staging_accelerator();
  // m tiled by 8: two steady-state iterations along D0 (m).
  const auto ss = add_iteration_spaces(add_transfers(test::staging_tiled(test::staging_gemm(), 8), acc));
  ASSERT_EQ(ss.iterations, 2);
  auto effect = [&](const std::vector<TemporalLoop>& loops) {
    EXPECT_EQ(loops.size(), 1u);
    EXPECT_EQ(loops.front().dim, 0);
    EXPECT_EQ(loops.front().size, 2);
    return loops.front().effect;
  };
  // X spans m: varying everywhere along its staging. W does not, but the Gemm reached through
  // Transfer(W_1) walks m: invariant for both W transfers and W's tensors.
  EXPECT_EQ(effect(node(ss, "Transfer(X)").loops), LoopEffect::Varying);
  EXPECT_EQ(effect(node(ss, "Transfer(X_1)").loops), LoopEffect::Varying);
  EXPECT_EQ(effect(node(ss, "Transfer(W)").loops), LoopEffect::Invariant);
  EXPECT_EQ(effect(node(ss, "Transfer(W_1)").loops), LoopEffect::Invariant);
  EXPECT_EQ(effect(tensor(ss, "W").loops), LoopEffect::Invariant);
  EXPECT_EQ(effect(tensor(ss, "W_1").loops), LoopEffect::Invariant);
  EXPECT_EQ(effect(tensor(ss, "W_2").loops), LoopEffect::Invariant);
  EXPECT_EQ(effect(tensor(ss, "X_1").loops), LoopEffect::Varying);
  EXPECT_EQ(effect(node(ss, "Transfer(Y_1)").loops), LoopEffect::Varying);
  EXPECT_EQ(effect(node(ss, "Transfer(Y_2)").loops), LoopEffect::Varying);
  EXPECT_EQ(effect(tensor(ss, "Y_2").loops), LoopEffect::Varying);
}

TEST(Staging, SlotsOfTheStagedGemm) {
  const auto acc = test::staging_accelerator();
  const auto ss = steady_state(test::staging_tiled(test::staging_gemm()), test::staging_costs(1000), acc);
  auto slot = [&](const std::string& n) { return node(ss, n).slot; };
  EXPECT_EQ(slot("X"), 0);
  EXPECT_EQ(slot("W"), 0);
  EXPECT_EQ(slot("Transfer(X)"), 1);
  EXPECT_EQ(slot("Transfer(X_1)"), 2);
  // Transfer(W) can share slot 1 with Transfer(X): they may use different shim links (0-1, 0-2, 0-3).
  EXPECT_EQ(slot("Transfer(W)"), 1);
  // Every plan into {5, 6} uses the links 1->5 and 2->6: Transfer(W_1) cannot join slot 2.
  EXPECT_EQ(slot("Transfer(W_1)"), 3);
  EXPECT_EQ(slot("Gemm"), 4);
  EXPECT_EQ(slot("Transfer(Y_1)"), 5);
  EXPECT_EQ(slot("Transfer(Y_2)"), 6);
  EXPECT_EQ(slot("Y_edge"), 7);
  EXPECT_EQ(ss.max_slot, 7);
}

// The reference's own AIE array (4 columns of shim, memory tile, 4 compute tiles) with the 2-conv
// mapped as the automatic mapping does: all 16 compute tiles, split 16 along ox (D1).
TEST(Staging, TwoConvOnTheWholeAieArray) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_TEST_DATA_DIR) +
                                              "/reference/stream-inputs/aie/hardware/whole_array.yaml");
  EXPECT_EQ(staging_memory_cores(acc), (std::vector<int>{1, 7, 13, 19}));
  const Workload wl = test::two_conv();
  mapping::GroupMapping m;
  m.nodes.resize(wl.size());
  const std::vector<int> tiles{2, 3, 4, 5, 8, 9, 10, 11, 14, 15, 16, 17, 20, 21, 22, 23};
  for (std::size_t i : wl.computation_nodes()) m.nodes[i] = {tiles, {{1, 16}}};
  m.intra_core_tiling = {{"Conv1", 0, 1}};
  const auto ss = add_transfers(tiling::tile(wl, m), acc);
  std::vector<std::string> transfers;
  for (const auto& n : ss.nodes)
    if (n.kind == SsKind::Transfer) transfers.push_back(n.name + " " + name(n.transfer_type));
  // Every input is reused on chip (Conv1 walks k, which the input lacks; the weights lack ox).
  EXPECT_EQ(transfers, (std::vector<std::string>{
                           "Transfer(input) MEM_TO_MEM", "Transfer(input_1) MEM_TO_COMPUTE",
                           "Transfer(weights_1) MEM_TO_MEM", "Transfer(weights_1_1) MEM_TO_COMPUTE",
                           "Transfer(conv1_out) COMPUTE_TO_COMPUTE", "Transfer(weights_2) MEM_TO_MEM",
                           "Transfer(weights_2_1) MEM_TO_COMPUTE", "Transfer(output_1) COMPUTE_TO_MEM",
                           "Transfer(output_2) MEM_TO_MEM"}));
  // From the shim, counted on the consumer (16 tiles over 4 columns, split 16 along ox): the
  // input spans ox, min(4, 16) = 4 tiles, the single combination of all four; the weights lack
  // ox, one tile at a time. The output, unrolled 16 along ox: 4 tiles too, a quarter each.
  EXPECT_EQ(tensor(ss, "input_1").placements, (Groups{{1, 7, 13, 19}}));
  EXPECT_EQ(tensor(ss, "weights_2_1").placements, (Groups{{1}, {7}, {13}, {19}}));
  EXPECT_EQ(tensor(ss, "output_2").placements, (Groups{{1, 7, 13, 19}}));
  EXPECT_EQ(tensor(ss, "output_2").tile_bits, 1 * 32 * 32 * 32 * 16 / 4);
  EXPECT_EQ(node(ss, "Transfer(input)").plans.size(), 1u);
  EXPECT_EQ(node(ss, "Transfer(input_1)").plans.size(), 1u);
  EXPECT_EQ(node(ss, "Transfer(weights_1)").plans.size(), 4u);
  EXPECT_EQ(node(ss, "Transfer(output_1)").plans.size(), 1u);
  EXPECT_EQ(node(ss, "Transfer(output_2)").plans.size(), 1u);
  EXPECT_EQ(plan_targets(node(ss, "Transfer(output_2)")), (Groups{{0}}));
}

// A single-row Gemm (M = 1): W lacks m, whose size is 1, and is still staged: reuse on chip is
// about which dims the consumer has, not their sizes in this tile.
TEST(Staging, ADimOfSizeOneStillMakesATensorReused) {
  const auto acc = test::staging_accelerator();
  const auto ss = add_transfers(test::staging_tiled(test::staging_gemm(1), 1), acc);
  EXPECT_GE(ss.node_index("Transfer(W_1)"), 0);
  EXPECT_EQ(name(node(ss, "Transfer(W)").transfer_type), std::string("MEM_TO_MEM"));
  EXPECT_EQ(tensor(ss, "W_1").placements, (Groups{{1, 2}, {1, 3}, {2, 3}}));
}

// Y is a graph output and the Add reads it too (a group output read inside its group): Y is
// gathered into memory and written off-chip once, as for staging_gemm, and the Add reads the
// Gemm's on-chip Y_1 through one COMPUTE_TO_COMPUTE transfer (cores {5, 6} to {5, 6}), so nothing
// comes back from off-chip.
TEST(Staging, AGroupOutputReadInsideTheGroupGoesOffChipOnceAndStaysOnChip) {
  const Workload base = test::staging_gemm_add();
  std::vector<Node> nodes = base.nodes();
  nodes.push_back(make_out_edge("Y_edge", base.node_by_name("Gemm").outputs.front()));
  const auto acc = test::staging_accelerator();
  const auto ss = add_transfers(test::staging_tiled(Workload(std::move(nodes))), acc);
  std::vector<std::string> transfers;
  for (const auto& n : ss.nodes)
    if (n.kind == SsKind::Transfer) transfers.push_back(n.name + " " + name(n.transfer_type));
  EXPECT_EQ(transfers, (std::vector<std::string>{"Transfer(X) MEM_TO_MEM", "Transfer(X_1) MEM_TO_COMPUTE",
                                                 "Transfer(W) MEM_TO_MEM", "Transfer(W_1) MEM_TO_COMPUTE",
                                                 "Transfer(Y_1) COMPUTE_TO_MEM", "Transfer(Y_2) MEM_TO_MEM",
                                                 "Transfer(Y_1 in group) COMPUTE_TO_COMPUTE", "Transfer(B) MEM_TO_COMPUTE",
                                                 "Transfer(Z_1) COMPUTE_TO_MEM", "Transfer(Z_2) MEM_TO_MEM"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Gemm").outputs), (std::vector<std::string>{"Y_1"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Transfer(Y_1 in group)").inputs), (std::vector<std::string>{"Y_1"}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Add").inputs), (std::vector<std::string>{"Y_1.in", "B_1"}));
  EXPECT_EQ(tensor(ss, "Y_1.in").placements, (Groups{{5, 6}}));
  EXPECT_EQ(plan_sources(node(ss, "Transfer(Y_1 in group)")), (Groups{{5, 6}}));
  EXPECT_EQ(plan_targets(node(ss, "Transfer(Y_1 in group)")), (Groups{{5, 6}}));
  EXPECT_EQ(tensor_names(ss, node(ss, "Y_edge").inputs), (std::vector<std::string>{"Y"}));
  EXPECT_EQ(tensor(ss, "Y").placements, (Groups{{0}}));
}
