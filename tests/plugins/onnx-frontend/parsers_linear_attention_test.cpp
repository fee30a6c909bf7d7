// LinearAttention (parsers_linear_attention.cpp) against hand-derived shapes, loops and MACs.
#include "onnx_test_util.hpp"

using namespace onnx_test;

namespace {

// B 2, 3 steps, 4 query heads over 2 kv heads, Dk 8, Dv 4: output (2, 3, 4*4), state (2, 2, 8, 4).
// The update has a point per state element per step, 2*2*3*8*4 = 384, t sequential; the readout
// is 2*4*3*4*8 = 768 MACs (every query head reads its step's Dk x Dv state).
TEST(LinearAttention, StateUpdateThenReadoutPerStep) {
  ModelBuilder m("g", 27);
  m.input("Q", F32, {2, 3, 32}).input("K", F32, {2, 3, 16}).input("V", F32, {2, 3, 8}).input("decay", F32, {2, 3, 2});
  m.output("Y", F32).output("S", F32);
  m.node("LinearAttention", {"Q", "K", "V", "", "decay"}, {"Y", "S"}, "la")
      .attr("q_num_heads", 4)
      .attr("kv_num_heads", 2)
      .attr("update_rule", "gated");
  auto w = parse(m);
  EXPECT_EQ(graph_output_shape(w, "Y"), (std::vector<std::int64_t>{2, 3, 16}));
  EXPECT_EQ(graph_output_shape(w, "S"), (std::vector<std::int64_t>{2, 2, 8, 4}));
  const auto& update = node(w, "la_state");
  EXPECT_EQ(sizes(update), (std::vector<std::int64_t>{2, 2, 3, 8, 4}));
  EXPECT_EQ(kinds(update), "PPSPP");
  EXPECT_EQ(map_of(update, 3), "(d0, d2, d1)");  // the decay per kv head
  EXPECT_EQ(total_macs(w), 768);
  EXPECT_EQ(map_of(node(w, "la_present"), 0), "(d0, d1, 2, d2, d3)");  // the last step
}

TEST(LinearAttention, HeadsThatDoNotGroupAreAnError) {
  ModelBuilder m("g", 27);
  m.input("Q", F32, {2, 3, 24}).input("K", F32, {2, 3, 16}).input("V", F32, {2, 3, 8}).output("Y", F32, {2, 3, 12}, true);
  m.node("LinearAttention", {"Q", "K", "V"}, {"Y"}, "la").attr("q_num_heads", 3).attr("kv_num_heads", 2);
  expect_error([&] { parse(m); }, {"la", "q_num_heads and kv_num_heads must group and divide the hidden sizes"});
}

}  // namespace
