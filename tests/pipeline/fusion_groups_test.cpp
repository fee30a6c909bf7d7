// The fusion groups (pipeline/fusion_groups.hpp): split_fusion_groups on the edges of a group that
// layout ops and pass-throughs create, on the hand-built 2-conv workload (two_conv_fixture.hpp)
// with FusionEdges or extra OutEdges added; and the automatic cut points' size cap
// (kMaxFusedComputeNodes): a run of fused layers longer than the cap is cut into equal consecutive
// chunks, counted per group between the existing cuts and FusionEdges, on hand-built Relu chains.
#include <gtest/gtest.h>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/fusion_groups.hpp>
#include <stream/pipeline/run.hpp>

#include "../schedule/two_conv_fixture.hpp"

using namespace stream;

namespace {

TensorPtr bf16(const std::string& n, std::vector<std::int64_t> s) { return make_tensor(n, DType::bf16, std::move(s)); }

std::vector<std::string> names(const Workload& w) {
  std::vector<std::string> out;
  for (const auto& n : w.nodes()) out.push_back(n.name);
  return out;
}

}  // namespace

// Conv1 -> Reshape r1 -> Reshape r2 -> Conv2, both reshapes kept as FusionEdges: group 0 must still
// write Conv1's output (the tensor before the whole chain) for group 1, which reads r2's output.
TEST(FusionGroups, ChainOfLayoutOpsBetweenGroupsWritesTheTensorBeforeTheChain) {
  auto input = bf16("input", {1, 8, 32, 32}), w1 = bf16("weights_1", {16, 8, 3, 3}), w2 = bf16("weights_2", {32, 16, 3, 3});
  auto mid = bf16("conv1_out", {1, 16, 32, 32}), flat = bf16("flat", {1, 16, 1024});
  auto back = bf16("back", {1, 16, 32, 32}), out = bf16("output", {1, 32, 32, 32});
  const Workload w({make_in_edge("input", input), make_in_edge("weights_1", w1), make_in_edge("weights_2", w2),
                    test::conv("Conv1", input, w1, mid), make_fusion_edge("r1", "Reshape", mid, flat),
                    make_fusion_edge("r2", "Reshape", flat, back), test::conv("Conv2", back, w2, out),
                    make_out_edge("output_edge", out)});
  const auto groups = pipeline::split_fusion_groups(w, {});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(names(groups[0]), (std::vector<std::string>{"input", "weights_1", "Conv1", "r2_out"}));
  EXPECT_EQ(groups[0].node_by_name("r2_out").inputs.front()->name, "conv1_out");
  EXPECT_EQ(names(groups[1]), (std::vector<std::string>{"r2_in", "weights_2", "Conv2", "output_edge"}));
}

// Conv1 -> Flatten -> graph output: the layout op has no reader to fold into, so it stays a
// FusionEdge; Conv1's group writes the tensor before it off-chip under the graph output's name.
TEST(FusionGroups, GraphOutputBehindALayoutOpIsWrittenByTheProducersGroup) {
  auto input = bf16("input", {1, 8, 32, 32}), w1 = bf16("weights_1", {16, 8, 3, 3});
  auto mid = bf16("conv1_out", {1, 16, 32, 32}), flat = bf16("flat", {1, 16384});
  const Workload w({make_in_edge("input", input), make_in_edge("weights_1", w1), test::conv("Conv1", input, w1, mid),
                    make_fusion_edge("flatten", "Flatten", mid, flat), make_out_edge("flat_edge", flat)});
  const auto groups = pipeline::split_fusion_groups(w, {});
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(names(groups[0]), (std::vector<std::string>{"input", "weights_1", "Conv1", "flat_edge"}));
  EXPECT_EQ(groups[0].node_by_name("flat_edge").inputs.front()->name, "conv1_out");
}

// The 2-conv workload that also returns its input: with per-layer cuts the pass-through OutEdge
// lands in group 1 (the dataflow order reaches it after Conv2), which gets the graph input as an
// InEdge. Nothing moves for it (the OutEdge reads the off-chip input itself), so the total is the
// plain per-layer 2-conv total: group 0 5592 (PerLayerGroupsAddUp) plus group 1 unchanged.
TEST(FusionGroups, GraphInputPassedThroughToAnOutputCostsNothing) {
  const Workload plain = test::two_conv();
  std::vector<Node> nodes = plain.nodes();
  nodes.push_back(make_out_edge("input_copy", nodes.front().outputs.front()));
  const Workload w(std::move(nodes));
  const auto groups = pipeline::split_fusion_groups(w, pipeline::per_layer_cut_points(w));
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(names(groups[1]),
            (std::vector<std::string>{"Conv1_cut_in", "weights_2", "input", "Conv2", "output_edge", "input_copy"}));

  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml");
  pipeline::RunSpec o;
  o.cut_mode = pipeline::CutMode::PerLayer;
  const auto with_copy = pipeline::run(w, acc, o);
  const auto without = pipeline::run(plain, acc, o);
  ASSERT_TRUE(with_copy.solved());
  ASSERT_TRUE(without.solved());
  EXPECT_EQ(with_copy.groups[0].allocation.total_latency, 5592);
  EXPECT_EQ(with_copy.total_latency, without.total_latency);
}

// Conv1's output is also a graph output: with per-layer cuts group 0 has two OutEdges reading it
// (the graph output and Conv1_cut_out; the memory fallback's per-layer cut makes the same shape).
// Both read one off-chip copy, so group 0 costs what it costs without the graph output: input
// 1024 + w1 144 + Conv1 2376 + conv1_out to DRAM 2048 = 5592 (PerLayerGroupsAddUp).
TEST(FusionGroups, TensorLeavingAsGraphOutputAndToTheNextGroupIsWrittenOnce) {
  std::vector<Node> nodes = test::two_conv().nodes();
  nodes.push_back(make_out_edge("conv1_out_edge", nodes[3].outputs.front()));
  const Workload w(std::move(nodes));
  const auto acc = hardware::load_accelerator(std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml");
  pipeline::RunSpec o;
  o.cut_mode = pipeline::CutMode::PerLayer;
  const auto r = pipeline::run(w, acc, o);
  ASSERT_TRUE(r.solved());
  ASSERT_EQ(r.groups.size(), 2u);
  const auto& ss = r.groups[0].schedule;
  int writes = 0;
  for (const auto& n : ss.nodes)
    if (n.kind == schedule::SsKind::Transfer && n.cores == std::vector<int>{ss.offchip_core}) ++writes;
  EXPECT_EQ(writes, 1);
  for (const char* edge : {"conv1_out_edge", "Conv1_cut_out"}) {
    const auto& e = ss.nodes.at(static_cast<std::size_t>(ss.node_index(edge)));
    EXPECT_EQ(ss.tensors.at(static_cast<std::size_t>(e.inputs.front())).name, "conv1_out") << edge;
  }
  EXPECT_EQ(r.groups[0].allocation.total_latency, 5592);
}

// ---------------- the size cap of the automatic cut points ----------------

namespace {

// x0 -> relu0 -> x1 -> ... -> relu{n-1} -> x{n}, with a Reshape FusionEdge after relu{fe} when
// fe >= 0 (its output feeds relu{fe+1}).
Workload relu_chain(int n, int fe = -1) {
  auto t = [](int i) { return make_tensor("x" + std::to_string(i), DType::bf16, {1, 16, 8, 8}); };
  TensorPtr in = t(0);
  std::vector<Node> nodes{make_in_edge("x0_edge", in)};
  auto d = [](int i) { return AffineExpr::dim(i); };
  const AffineMap id(4, {d(0), d(1), d(2), d(3)});
  for (int i = 0; i < n; ++i) {
    TensorPtr out = t(i + 1);
    nodes.push_back(make_computation("relu" + std::to_string(i), "Relu", {in}, {out}, {id, id}));
    in = out;
    if (i == fe) {
      TensorPtr moved = make_tensor("y" + std::to_string(i), DType::bf16, {1, 16, 8, 8});
      nodes.push_back(make_fusion_edge("reshape", "Reshape", in, moved));
      in = moved;
    }
  }
  nodes.push_back(make_out_edge("out_edge", in));
  return Workload(std::move(nodes));
}

using Names = std::vector<std::string>;

}  // namespace

// 10 nodes, cap 4: ceil(10/4) = 3 chunks of ceil(10/3) = 4 nodes, cut after relu3 and relu7.
TEST(SizeCap, LongGroupIsCutIntoEqualChunks) {
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(10), {}, 4), (Names{"relu3", "relu7"}));
}

// 8 nodes, cap 4: exactly two chunks of 4 (one cut), and nothing at or under the cap.
TEST(SizeCap, GroupsAtTheCapStayWhole) {
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(8), {}, 4), (Names{"relu3"}));
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(4), {}, 4), Names{});
}

// An existing cut after relu1 leaves groups of 2 and 8: only the second is chunked (cut after
// relu5), and the existing cut is kept, in dataflow order.
TEST(SizeCap, CountsEachGroupBetweenExistingCuts) {
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(10), {"relu1"}, 4), (Names{"relu1", "relu5"}));
}

// A FusionEdge after relu2 already ends a group of 3; the remaining 7 make two chunks of 4 and 3.
TEST(SizeCap, AFusionEdgeEndsAGroup) {
  EXPECT_EQ(pipeline::size_capped_cut_points(relu_chain(10, 2), {}, 4), (Names{"relu6"}));
}

// The chunks the cuts make are the groups split_fusion_groups builds.
TEST(SizeCap, SplitMakesChunksOfAtMostTheCap) {
  const Workload w = relu_chain(10);
  const auto groups = pipeline::split_fusion_groups(w, pipeline::size_capped_cut_points(w, {}, 4));
  ASSERT_EQ(groups.size(), 3u);
  for (const auto& g : groups) EXPECT_LE(g.computation_nodes().size(), 4u);
  EXPECT_EQ(groups[2].computation_nodes().size(), 2u);
}

namespace {

mapping::Mapping fused_groups_file(const std::vector<Names>& groups) {
  std::string text = "layers:\n";
  for (const auto& g : groups)
    for (const auto& n : g) text += "  - {name: " + n + ", core_allocation: [[0]]}\n";
  text += "fused_groups:\n";
  for (std::size_t k = 0; k < groups.size(); ++k) {
    text += "  - {name: g" + std::to_string(k) + ", layers: [";
    for (std::size_t i = 0; i < groups[k].size(); ++i) text += (i ? ", " : "") + groups[k][i];
    text += "], intra_core_tiling: []}\n";
  }
  return mapping::parse_mapping_text(text, "groups.yaml");
}

std::string mapped_error(const Workload& w, const mapping::Mapping& m) {
  try {
    (void)pipeline::mapped_cut_points(w, m);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// A mapping file with a fused group per fusion group (what `--mapping optimize` writes): each ends
// at its last compute node, and a run with it has those groups.
TEST(MappedCutPoints, AFusedGroupPerFusionGroup) {
  const Workload w = relu_chain(5);
  const auto m = fused_groups_file({{"relu0", "relu1"}, {"relu2"}, {"relu3", "relu4"}});
  EXPECT_EQ(pipeline::mapped_cut_points(w, m), (Names{"relu1", "relu2"}));
  pipeline::RunSpec spec;
  spec.mapping_data = std::make_shared<const mapping::Mapping>(m);
  const auto groups = pipeline::checked_fusion_groups(w, spec);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[1].computation_nodes().size(), 1u);
  // One fused group (every hand-written file so far): the whole workload, as before.
  spec.mapping_data = std::make_shared<const mapping::Mapping>(fused_groups_file({{"relu0", "relu1", "relu2", "relu3", "relu4"}}));
  EXPECT_EQ(pipeline::checked_fusion_groups(w, spec).size(), 1u);
}

TEST(MappedCutPoints, ANodeInNoFusedGroupOrAGroupInTwoPiecesIsAnErrorNamingTheFile) {
  const Workload w = relu_chain(4);
  EXPECT_EQ(mapped_error(w, fused_groups_file({{"relu0", "relu1"}, {"relu2"}})),
            "groups.yaml: with 2 fused groups, every compute node must be in one by name; 'relu3' is in none");
  EXPECT_EQ(mapped_error(w, fused_groups_file({{"relu0", "relu2"}, {"relu1", "relu3"}})),
            "groups.yaml: fused group 'g0' is not one run of consecutive compute nodes (at 'relu2'): a fusion group must be");
}
