// Transfer routing (spec §4.5 "Multicast path plans"): candidate paths per core pair in
// networkx.shortest_simple_paths order, and the beam search that prefers shared edges.
// Expectations are derived by hand in the comments (on a 2x3 grid built here and on the
// reference's simba 6x6 mesh).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/schedule/routing.hpp>
#include <stream/schedule/steady_state.hpp>
#include <stream/tiling/tiled_group.hpp>

#include "two_conv_fixture.hpp"

using namespace stream;
using namespace stream::schedule;

namespace {

using Paths = std::vector<std::vector<int>>;

// 0 - 1 - 2
// |   |   |
// 3 - 4 - 5      links (bandwidth 32) listed in this order; link [1, 4] is slower (bw 16)
hardware::Accelerator grid_2x3() {
  hardware::Accelerator acc;
  acc.name = "grid_2x3";
  acc.cores.resize(6);
  for (int i = 0; i < 6; ++i) acc.cores[static_cast<std::size_t>(i)].id = i;
  for (auto [a, b] : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {0, 3}, {1, 4}, {2, 5}, {3, 4}, {4, 5}}) {
    hardware::Connection c;
    c.type = hardware::ConnectionType::Link;
    c.cores = {a, b};
    c.bandwidth = (a == 1 && b == 4) ? 16 : 32;
    acc.connectivity.push_back(c);
  }
  acc.build_interconnect();
  return acc;
}

hardware::Accelerator simba() {
  return hardware::load_accelerator(std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/hardware/simba.yaml");
}

std::vector<int> links_of(const hardware::Accelerator& acc, const Paths& paths) {
  std::vector<int> out;
  for (const auto& p : paths)
    for (int l : acc.path_links(p))
      if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
  return out;
}

}  // namespace

// Yen's order against networkx itself (tests/schedule/data/networkx_simple_paths.txt, written
// by networkx's shortest_simple_paths on the copy nx.DiGraph(G) of the reference's meshes, a
// multi-bus system and the AIE array whole_array_strix).
TEST(Routing, ShortestSimplePathsMatchNetworkx) {
  std::ifstream in(std::string(STREAM_SOURCE_DIR) + "/tests/schedule/data/networkx_simple_paths.txt");
  ASSERT_TRUE(in) << "missing oracle file";
  std::map<std::string, hardware::Accelerator> systems;
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(':');
    std::istringstream head(line.substr(0, colon));
    std::string system;
    int s = 0, t = 0;
    head >> system >> s >> t;
    Paths expected(1);
    std::istringstream body(line.substr(colon + 1));
    std::string token;
    while (body >> token) {
      if (token == "|") expected.emplace_back();
      else expected.back().push_back(std::stoi(token));
    }
    auto it = systems.find(system);
    if (it == systems.end())
      it = systems
               .emplace(system, hardware::load_accelerator(std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/" +
                                                           (system.find('/') == std::string::npos ? "hardware/" : "") +
                                                           system + ".yaml"))
               .first;
    EXPECT_EQ(it->second.shortest_simple_paths(s, t, 4), expected) << line;
    ++checked;
  }
  EXPECT_EQ(checked, 376);
}

// (c) Yen's order on the grid, 0 -> 5. Three paths of length 3 and one of length 5 exist.
//  1st, bidirectional Dijkstra: forward pops 0 (sees 1, 3), backward pops 5 (sees 2, 4), forward
//       pops 1 and sees 2, now seen from both sides: meeting path [0,1,2,5], length 3 (4, seen
//       next, also totals 3 but only a strictly shorter meeting replaces the first); backward pops
//       2, forward pops 3, backward pops 4, forward pops 2, final both ways: done.
//  Spurs of [0,1,2,5]: root [0] without edge 0->1 gives [0,3,4,5] (pushed first); root [0,1]
//       without node 0 and edge 1->2 gives [0,1,4,5]; root [0,1,2] has no spur. Equal lengths
//       come out in push order, so [0,3,4,5] precedes [0,1,4,5] (not lexicographic).
//  Spurs of [0,3,4,5]: only root [0,3,4] without 0, 3 and edge 4->5 gives [0,3,4,1,2,5].
TEST(Routing, ShortestSimplePathsFollowYenDiscoveryOrder) {
  const auto acc = grid_2x3();
  const Paths expected{{0, 1, 2, 5}, {0, 3, 4, 5}, {0, 1, 4, 5}, {0, 3, 4, 1, 2, 5}};
  EXPECT_EQ(acc.shortest_simple_paths(0, 5, 4), expected);
  EXPECT_EQ(acc.shortest_simple_paths(0, 5, 10), expected);  // no fifth simple path
  EXPECT_EQ(acc.shortest_simple_paths(0, 5, 2), Paths(expected.begin(), expected.begin() + 2));
  // 0 -> 4: [0,1,4] first (forward sees 1 before 3); the root [0] spur without 0->1 is [0,3,4];
  // the root [0,1] spur without node 0 and edge 1->4 is [0,1,2,5,4].
  EXPECT_EQ(acc.shortest_simple_paths(0, 4, 4), (Paths{{0, 1, 4}, {0, 3, 4}, {0, 1, 2, 5, 4}}));
  EXPECT_EQ(acc.shortest_simple_paths(2, 2, 4), (Paths{{2}}));
  EXPECT_TRUE(acc.shortest_simple_paths(0, 5, 0).empty());
}

// The candidates of a pair: the BFS path, then Yen's paths not yet listed, at most 4.
TEST(Routing, CandidatesStartWithTheBfsPath) {
  const auto acc = grid_2x3();
  Router router(acc);
  EXPECT_EQ(router.candidates(0, 5), (Paths{{0, 1, 2, 5}, {0, 3, 4, 5}, {0, 1, 4, 5}, {0, 3, 4, 1, 2, 5}}));
  EXPECT_EQ(router.candidates(0, 5).front(), acc.shortest_path(0, 5));
  EXPECT_EQ(router.candidates(3, 3), (Paths{{3}}));
}

// Where the BFS path and Yen's first path differ, the BFS path leads. Links [2,4], [2,3], [2,1],
// [0,1], [4,0] (3 - 2, then 2 - 4 - 0 and 2 - 1 - 0), pair 3 -> 0:
//  - bidirectional BFS grows the smaller fringe a level at a time (forward on ties): forward
//    {3} -> {2} -> {4, 1} (2's successors in order 4, 3, 1); then backward from 0 meets 1 first:
//    [3,2,1,0].
//  - bidirectional Dijkstra alternates pops: forward 3 (sees 2), backward 0 (sees 1, 4), forward 2
//    sees 4 first, now seen both ways: [3,2,4,0]; 1 also totals 3, not shorter.
// Yen lists [3,2,4,0], [3,2,1,0]; the candidates are [3,2,1,0] then [3,2,4,0], and one pair takes
// the first.
TEST(Routing, BfsPathLeadsWhenYenStartsElsewhere) {
  hardware::Accelerator acc;
  acc.name = "y";
  acc.cores.resize(5);
  for (auto [a, b] : std::vector<std::pair<int, int>>{{2, 4}, {2, 3}, {2, 1}, {0, 1}, {4, 0}}) {
    hardware::Connection c;
    c.cores = {a, b};
    c.bandwidth = 8;
    acc.connectivity.push_back(c);
  }
  acc.build_interconnect();
  EXPECT_EQ(acc.shortest_path(3, 0), (std::vector<int>{3, 2, 1, 0}));
  EXPECT_EQ(acc.shortest_simple_paths(3, 0, 4), (Paths{{3, 2, 4, 0}, {3, 2, 1, 0}}));
  Router router(acc);
  EXPECT_EQ(router.candidates(3, 0), (Paths{{3, 2, 1, 0}, {3, 2, 4, 0}}));
  const auto plan = router.plan({3}, {0}, 64);
  EXPECT_EQ(plan.paths, (Paths{{3, 2, 1, 0}}));
  EXPECT_EQ(plan.links, (std::vector<int>{acc.edge(3, 2), acc.edge(2, 1), acc.edge(1, 0)}));
}

// Yen's paths come from the reference's copy nx.DiGraph(G), whose predecessor lists are in node
// order (first appearance), not in edge-insertion order; the BFS path stays on G. Links [0, 3],
// [0, 2], [2, 1], [3, 1]: node order 0, 3, 2, 1; pred(1) is [2, 3] in G (link [2, 1] came first)
// but [3, 2] in the copy (3 appeared before 2; by id it would be [2, 3] again). Pair 0 -> 1 has
// two paths of 2 hops, [0,3,1] and [0,2,1]:
//  - bidirectional Dijkstra on the copy: forward pops 0 (sees 3, 2), backward pops 1 and scans
//    3 first, already seen forward: meeting path [0,3,1]; 2 also totals 2, not shorter. On G it
//    would scan 2 first and start with [0,2,1].
//  - Yen's spur of root [0] without edge 0->3 is [0,2,1]; root [0,3] without node 0 and edge 3->1
//    has none. So [0,3,1], [0,2,1].
//  - bidirectional BFS on G: forward {0} -> {3, 2}; backward from 1 scans G's pred(1) = [2, 3] and
//    meets 2 first: [0,2,1], so the candidates are [0,2,1], [0,3,1].
TEST(Routing, YenScansPredecessorsInNodeOrder) {
  hardware::Accelerator acc;
  acc.name = "copy_order";
  acc.cores.resize(4);
  for (int i = 0; i < 4; ++i) acc.cores[static_cast<std::size_t>(i)].id = i;
  for (auto [a, b] : std::vector<std::pair<int, int>>{{0, 3}, {0, 2}, {2, 1}, {3, 1}}) {
    hardware::Connection c;
    c.cores = {a, b};
    c.bandwidth = 8;
    acc.connectivity.push_back(c);
  }
  acc.build_interconnect();
  ASSERT_EQ(acc.graph_cores(), (std::vector<int>{0, 3, 2, 1}));
  ASSERT_EQ(acc.predecessors(1), (std::vector<int>{2, 3}));  // G's own order is unchanged
  EXPECT_EQ(acc.shortest_simple_paths(0, 1, 4), (Paths{{0, 3, 1}, {0, 2, 1}}));
  EXPECT_EQ(acc.shortest_path(0, 1), (std::vector<int>{0, 2, 1}));
  Router router(acc);
  EXPECT_EQ(router.candidates(0, 1), (Paths{{0, 2, 1}, {0, 3, 1}}));
}

// The multicast of the AIE SwiGLU's input (fusion-and-slots B.3): whole_array_strix, memory tiles
// {1, 7} to the AIE tiles of columns 0-3 (Gemm_Left and Gemm_Right). With Yen's paths from the
// copy, the reference's plan scores 19 and reaches columns 2 and 3 over the horizontal links
// only, in this order of first use; the vertical links of columns 2-3 (e.g. 14->15, 20->21, used
// by the weights of Gemm_Right) and the shim stay free. On G it scored 20 and used 15->16, 16->17,
// 20->21, 21->22, 22->23.
TEST(Routing, SwigluInputMulticastOnStrixLeavesColumnsTwoAndThreeVerticalsFree) {
  const auto acc = hardware::load_accelerator(std::string(STREAM_TEST_DATA_DIR) +
                                              "/reference/stream-inputs/aie/hardware/whole_array_strix.yaml");
  Router router(acc);
  EXPECT_EQ(router.candidates(7, 17),
            (Paths{{7, 8, 14, 15, 16, 17}, {7, 8, 9, 10, 11, 17}, {7, 8, 9, 15, 16, 17}, {7, 8, 9, 10, 16, 17}}));
  const auto plan = router.plan({1, 7}, {2, 3, 4, 5, 8, 9, 10, 11, 14, 15, 16, 17, 20, 21, 22, 23}, 64);
  EXPECT_EQ(plan.hops, 19);
  const std::vector<std::pair<int, int>> expected{{1, 2},   {2, 3},   {3, 4},   {4, 5},   {2, 8},  {3, 9},   {9, 10},
                                                  {10, 11}, {8, 14},  {9, 15},  {10, 16}, {11, 17}, {14, 20}, {15, 21},
                                                  {8, 9},   {16, 22}, {17, 23}, {7, 8},   {8, 2}};
  std::vector<int> links;
  for (auto [a, b] : expected) links.push_back(acc.edge(a, b));
  EXPECT_EQ(plan.links, links);
}

// (a) One pair takes the BFS shortest path even when others are as short.
TEST(Routing, SinglePairUsesTheBfsShortestPath) {
  const auto acc = grid_2x3();
  const auto plan = multicast_plan(acc, {0}, {5}, 320);
  ASSERT_EQ(plan.paths.size(), 1u);
  EXPECT_EQ(plan.paths[0], (std::vector<int>{0, 1, 2, 5}));
  EXPECT_EQ(plan.links, (std::vector<int>{acc.edge(0, 1), acc.edge(1, 2), acc.edge(2, 5)}));
  EXPECT_EQ(plan.hops, 3);
  EXPECT_EQ(plan.latency, 10);  // 320 bits over 32 bits/cycle links

  // simba: the DRAM core 36 links to the top row 0..5; core 14 (row 2, column 2) is reached in 3
  // hops only through 2 and 8.
  const auto s = simba();
  const auto p = multicast_plan(s, {36}, {14}, 1000);
  EXPECT_EQ(p.paths, (Paths{{36, 2, 8, 14}}));
  EXPECT_EQ(p.links, (std::vector<int>{s.edge(36, 2), s.edge(2, 8), s.edge(8, 14)}));
  EXPECT_EQ(p.hops, 3);
  EXPECT_EQ(p.latency, 4);  // ceil(1000 / 256)
}

// (b) Shared edges beat independent shortest paths.
// Grid, 0 -> {4, 5}. Independent BFS paths [0,1,4] and [0,1,2,5] use 4 directed edges.
// Pair (0,4): candidates [0,1,4] (2), [0,3,4] (2), [0,1,2,5,4] (4), kept in that order.
// Pair (0,5) from {0>1,1>4}: [0,1,2,5] +2, [0,3,4,5] +3, [0,1,4,5] +1 -> 3, [0,3,4,1,2,5] +4;
//   from {0>3,3>4}: [0,3,4,5] +1 -> 3 as well, but generated later, so the stable sort keeps
//   [0,1,4] + [0,1,4,5]: 3 edges 0>1, 1>4, 4>5. The slow 1->4 link (16) sets the latency.
TEST(Routing, MulticastSharesEdges) {
  const auto acc = grid_2x3();
  const auto plan = multicast_plan(acc, {0}, {5, 4}, 320);
  EXPECT_EQ(plan.paths, (Paths{{0, 1, 4}, {0, 1, 4, 5}}));
  EXPECT_EQ(plan.hops, 3);
  EXPECT_EQ(plan.links, (std::vector<int>{acc.edge(0, 1), acc.edge(1, 4), acc.edge(4, 5)}));
  EXPECT_EQ(plan.min_bandwidth, 16);
  EXPECT_EQ(plan.latency, 20);
  // The independent shortest paths would have needed one more edge.
  EXPECT_EQ(links_of(acc, {acc.shortest_path(0, 4), acc.shortest_path(0, 5)}).size(), 4u);
}

// simba, DRAM 36 -> {6, 7}: BFS paths [36,0,6] and [36,1,7] use 4 edges.
// Pair (36,6) candidates: [36,0,6] (2), [36,1,0,6] (3), [36,1,7,6] (3), [36,0,1,7,6] (4).
// Pair (36,7) candidates: [36,1,7], [36,0,1,7], [36,2,1,7], [36,0,6,7]. Score 3 is reached by
// [36,0,6] + [36,0,6,7] (first) and by [36,1,7,6] + [36,1,7] (later): the first wins.
TEST(Routing, SimbaMulticastFromDramSharesTheColumn) {
  const auto s = simba();
  Router router(s);
  EXPECT_EQ(router.candidates(36, 6), (Paths{{36, 0, 6}, {36, 1, 0, 6}, {36, 1, 7, 6}, {36, 0, 1, 7, 6}}));
  EXPECT_EQ(router.candidates(36, 7), (Paths{{36, 1, 7}, {36, 0, 1, 7}, {36, 2, 1, 7}, {36, 0, 6, 7}}));
  const auto plan = router.plan({36}, {6, 7}, 512);
  EXPECT_EQ(plan.paths, (Paths{{36, 0, 6}, {36, 0, 6, 7}}));
  EXPECT_EQ(plan.hops, 3);
  EXPECT_EQ(plan.links, (std::vector<int>{s.edge(36, 0), s.edge(0, 6), s.edge(6, 7)}));
  EXPECT_EQ(plan.latency, 2);
}

// Pairs run in (source, target) order whatever the order of the groups, and the beam keeps a
// state that only pays off later. {3, 0} -> {5, 4}: pairs (0,4), (0,5), (3,4), (3,5).
// After (0,4), (0,5) two states score 3: [0,1,4]+[0,1,4,5] {0>1,1>4,4>5} (first, see above) and
// [0,3,4]+[0,3,4,5] {0>3,3>4,4>5}. Pair (3,4)'s best candidate [3,4] costs the first +1 but the
// second nothing, and (3,5) [3,4,5] is then free: 3 edges. A beam of width 1 keeps only the first
// state and ends with 4 edges (0>1, 1>4, 4>5, 3>4).
TEST(Routing, BeamKeepsTheStateThatPaysOffLater) {
  const auto acc = grid_2x3();
  const auto plan = multicast_plan(acc, {3, 0}, {5, 4}, 32);
  EXPECT_EQ(plan.paths, (Paths{{0, 3, 4}, {0, 3, 4, 5}, {3, 4}, {3, 4, 5}}));
  EXPECT_EQ(plan.hops, 3);
  EXPECT_EQ(plan.links, (std::vector<int>{acc.edge(0, 3), acc.edge(3, 4), acc.edge(4, 5)}));
  EXPECT_EQ(plan.latency, 1);

  Router greedy(acc, RoutingOptions{4, 1});
  const auto g = greedy.plan({3, 0}, {5, 4}, 32);
  EXPECT_EQ(g.paths, (Paths{{0, 1, 4}, {0, 1, 4, 5}, {3, 4}, {3, 4, 5}}));
  EXPECT_EQ(g.hops, 4);
  EXPECT_EQ(g.latency, 2);  // now through the slow 1->4 link
}

// (d) A core sending to itself uses no link.
TEST(Routing, SameCoreNeedsNoLink) {
  const auto acc = grid_2x3();
  const auto plan = multicast_plan(acc, {2}, {2}, 4096);
  EXPECT_EQ(plan.paths, (Paths{{2}}));
  EXPECT_TRUE(plan.links.empty());
  EXPECT_EQ(plan.hops, 0);
  EXPECT_EQ(plan.latency, 0);
  // Mixed: the self pair adds nothing, the other pair its BFS path.
  const auto mixed = multicast_plan(acc, {2}, {2, 5}, 64);
  EXPECT_EQ(mixed.paths, (Paths{{2}, {2, 5}}));
  EXPECT_EQ(mixed.links, std::vector<int>{acc.edge(2, 5)});
  EXPECT_EQ(mixed.hops, 1);
  EXPECT_EQ(mixed.latency, 2);
}

// A bus is one resource: every pair's path is on it, so the plan lists it once.
TEST(Routing, BusTopologyUsesTheBusOnce) {
  const auto acc =
      hardware::load_accelerator(std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/hardware/tpu_like_quad_core.yaml");
  const auto plan = multicast_plan(acc, {6}, {0, 1, 2, 3}, 4096);
  ASSERT_EQ(plan.links.size(), 1u);
  EXPECT_TRUE(acc.links().at(static_cast<std::size_t>(plan.links[0])).is_bus());
  EXPECT_EQ(plan.hops, 4);  // four distinct directed edges 6->c, all on the bus
  EXPECT_EQ(plan.latency, 32);  // 4096 / 128
}

TEST(Routing, UnreachableTargetIsAnError) {
  auto acc = grid_2x3();
  acc.cores.resize(7);
  acc.cores[6].id = 6;  // in no connection: not a graph node
  EXPECT_THROW((void)multicast_plan(acc, {0}, {6}, 32), Error);
}

// The steady state routes its transfers with these plans: 2-conv on simba cores {6, 7} (split in
// two along D1). The input goes 36 -> {6, 7} as derived above (3 edges where the independent
// BFS paths [36,0,6], [36,1,7] took 4); 131072 bits over 256-bit links take 512 cycles.
// The output comes back {6, 7} -> 36: pair (6,36) keeps [6,0,36] first (2 edges); for (7,36)
// [7,6,0,36] adds only 7>6 (score 3) and is generated before the equally good [6,7,1,36] +
// [7,1,36] of the second state. Conv1 -> Conv2 stays on {6, 7}: 6>7 and 7>6, self pairs free.
TEST(Routing, SteadyStateTransfersUseTheMulticastPlans) {
  const auto s = simba();
  const Workload wl = test::two_conv();
  mapping::GroupMapping m;
  m.nodes.resize(wl.size());
  for (std::size_t i : wl.computation_nodes()) m.nodes[i] = {{6, 7}, {{1, 2}}};
  m.intra_core_tiling = {{"Conv1", 0, 1}};
  const auto ss = add_transfers(tiling::tile(wl, m), s);
  auto plan_of = [&](const std::string& name) {
    const int i = ss.node_index(name);
    EXPECT_GE(i, 0) << name;
    EXPECT_EQ(ss.nodes[static_cast<std::size_t>(i)].plans.size(), 1u) << name;
    return ss.nodes[static_cast<std::size_t>(i)].plans.at(0);
  };
  const auto input = plan_of("Transfer(input)");
  EXPECT_EQ(input.paths, (Paths{{36, 0, 6}, {36, 0, 6, 7}}));
  EXPECT_EQ(input.hops, 3);
  EXPECT_EQ(input.links, (std::vector<int>{s.edge(36, 0), s.edge(0, 6), s.edge(6, 7)}));
  EXPECT_EQ(input.latency, 512);
  const auto output = plan_of("Transfer(output_1)");
  EXPECT_EQ(output.paths, (Paths{{6, 0, 36}, {7, 6, 0, 36}}));
  EXPECT_EQ(output.hops, 3);
  const auto mid = plan_of("Transfer(conv1_out)");
  EXPECT_EQ(mid.paths, (Paths{{6}, {6, 7}, {7, 6}, {7}}));
  EXPECT_EQ(mid.hops, 2);
}
