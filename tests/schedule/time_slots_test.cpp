// The time slots' disjointness rule (spec §4.7) on hand-built steady states: which slot each node
// takes when many nodes contend for one link or one core, with every figure derived by hand.
#include <gtest/gtest.h>

#include <stream/schedule/steady_state.hpp>

using namespace stream::schedule;

namespace {

struct Builder {
  SteadyState ss;
  int transfer(const std::string& name, std::vector<std::vector<int>> link_options, int after = -1) {
    SsNode n;
    n.kind = SsKind::Transfer;
    n.name = name;
    for (auto& links : link_options) n.plans.push_back(TransferPlan{.links = std::move(links)});
    return add(std::move(n), after);
  }
  int compute(const std::string& name, std::vector<int> cores, int after = -1) {
    SsNode n;
    n.kind = SsKind::Compute;
    n.name = name;
    n.cores = std::move(cores);
    return add(std::move(n), after);
  }
  int in_edge(const std::string& name) {
    SsNode n;
    n.kind = SsKind::InEdge;
    n.name = name;
    return add(std::move(n), -1);
  }
  // Every node writes a tensor of its own; `after` makes the node read that of node `after`.
  int add(SsNode n, int after) {
    const int index = static_cast<int>(ss.nodes.size());
    if (after >= 0) n.inputs.push_back(ss.nodes[static_cast<std::size_t>(after)].outputs.front());
    n.outputs.push_back(static_cast<int>(ss.tensors.size()));
    ss.tensors.push_back(SsTensor{.name = n.name + "_out", .producer = index});
    ss.nodes.push_back(std::move(n));
    return index;
  }
  [[nodiscard]] int slot(const SteadyState& done, const std::string& name) const {
    return done.nodes[static_cast<std::size_t>(done.node_index(name))].slot;
  }
};

}  // namespace

TEST(TimeSlots, TransfersContendingForOneLinkTakeConsecutiveSlots) {
  // Twelve weight transfers with no predecessor, each only over link 7: the k-th (in insertion
  // order, the tie rule) finds slots 0..k-1 taken and goes to slot k.
  Builder b;
  for (int k = 0; k < 12; ++k) b.transfer("T" + std::to_string(k), {{7}});
  // A transfer over link 7 or link 8: slot 0 holds T0 on link 7, so it takes link 8 there.
  b.transfer("either", {{7}, {8}});
  // Only link 8: slot 0 would need `either` on 7 beside T0 on 7; no choice is disjoint. Slot 1
  // holds T1 (7) alone, so it goes there.
  b.transfer("only8", {{8}});
  const auto done = assign_time_slots(b.ss);
  for (int k = 0; k < 12; ++k) EXPECT_EQ(b.slot(done, "T" + std::to_string(k)), k) << k;
  EXPECT_EQ(b.slot(done, "either"), 0);
  EXPECT_EQ(b.slot(done, "only8"), 1);
  EXPECT_EQ(done.max_slot, 11);
}

TEST(TimeSlots, ComputeNodesAreNotKeptOutOfSlotsThatRefusedATransferOnTheSameNumber) {
  // Core and link ids are numbered apart: a compute node on core 7 and a transfer over link 7
  // never contend. Nodes are taken computes first, then transfers, then edges (ties by index):
  // `early` and `second` on core 7 take slots 0 and 1; the transfers T0..T5 over link 7 take
  // slots 0..5, T5 having found slots 0..4 full; the in-edge `in` (no predecessor) then gets slot
  // 0, and `late`, on core 7 after it, has earliest slot 1, which holds `second` on core 7: it
  // takes slot 2. (Slots 1..4 were refused to the transfers, not to a compute node.)
  Builder b;
  b.compute("early", {7});
  b.compute("second", {7});
  for (int k = 0; k < 6; ++k) b.transfer("T" + std::to_string(k), {{7}});
  b.compute("late", {7}, b.in_edge("in"));
  const auto done = assign_time_slots(b.ss);
  EXPECT_EQ(b.slot(done, "early"), 0);
  EXPECT_EQ(b.slot(done, "second"), 1);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(b.slot(done, "T" + std::to_string(k)), k) << k;
  EXPECT_EQ(b.slot(done, "in"), 0);
  EXPECT_EQ(b.slot(done, "late"), 2);
}
