// The SwiGLU block (swiglu.cpp) against workload-spec §4: node order, shapes, maps, iterator kinds,
// dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(SwiGluBlock, MatchesSpecFigures) {
  const Workload w = build(swiglu_spec());  // t=16 d=64 f=128
  EXPECT_EQ(names(w), (std::vector<std::string>{"x", "W_gate", "W_up", "W_down", "gate_proj", "up_proj", "silu",
                                                 "gate_mul", "down_proj", "y"}));
  EXPECT_EQ(w.edges().size(), 10u);
  EXPECT_EQ(total_dims(w), 13);
  EXPECT_EQ(unique_dims(w), 4u);
  EXPECT_EQ(w.unified_dimensions().relations.size(), 9u);
  EXPECT_EQ(w.node_by_name("gate_proj").type, "MatMul");
  EXPECT_EQ(w.node_by_name("down_proj").type, "MatMul");
  EXPECT_EQ(w.node_by_name("silu").type, "Silu");
  EXPECT_EQ(w.node_by_name("gate_mul").type, "Mul");
  EXPECT_EQ(w.node_by_name("silu").outputs[0]->name, "silu");
  EXPECT_EQ(w.node_by_name("gate_mul").outputs[0]->name, "hidden");
  const Node& gp = w.node_by_name("gate_proj");
  EXPECT_EQ(gp.operand_mapping, (std::vector<AffineMap>{m(3, {0, 2}), m(3, {2, 1}), m(3, {0, 1})}));
  EXPECT_EQ(kinds(gp), "PPR");
  EXPECT_EQ(loop_sizes(gp), (Shape{16, 128, 64}));
  EXPECT_EQ(loop_sizes(w.node_by_name("down_proj")), (Shape{16, 64, 128}));
  for (const auto& n : w.nodes())
    if (n.has_iteration_space()) {
      EXPECT_TRUE(positions(n, IteratorKind::Sequential).empty()) << n.name;
    }
}

}  // namespace
}  // namespace stream::blocks::test
