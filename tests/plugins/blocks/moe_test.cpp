// The mixture-of-experts block (moe.cpp) against workload-spec §4: node order, shapes, maps,
// iterator kinds, dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(MoeBlock, RoutingIsDataDependent) {
  const Workload w = build(moe_spec());  // T=32 D=64 F=128 E=4 C=16
  EXPECT_EQ(names(w), (std::vector<std::string>{"x", "W_router", "W_expert_in", "W_expert_out", "router", "dispatch",
                                                 "expert_in", "expert_silu", "expert_out", "combine", "y"}));
  EXPECT_EQ(w.edges().size(), 12u);
  EXPECT_EQ(total_dims(w), 22);
  EXPECT_EQ(unique_dims(w), 6u);
  const Node& d = w.node_by_name("dispatch");
  EXPECT_EQ(d.type, "MoEDispatch");
  EXPECT_EQ(kinds(d), "PPPR");
  EXPECT_EQ(d.outputs[0]->shape, (Shape{4, 16, 64}));
  const AccessRelation a = access_relation(d, 0);
  EXPECT_EQ(a.kind, AccessKind::DataDependent);
  EXPECT_FALSE(a.is_static());
  EXPECT_EQ(a.index_tensor, "router_logits");
  EXPECT_EQ(access_relation(d, 1).kind, AccessKind::Affine);
  EXPECT_EQ(access_relation(w.node_by_name("expert_in"), 0).kind, AccessKind::Affine);
  const Node& c = w.node_by_name("combine");
  EXPECT_EQ(kinds(c), "PPRR");
  EXPECT_EQ(access_relation(c, 0).kind, AccessKind::DataDependent);
  EXPECT_EQ(access_relation(c, 0).index_tensor, "router_logits");
  EXPECT_EQ(c.operand_mapping[0], m(4, {2, 3, 1}));
}

TEST(MoeBlock, CapacityParameter) {
  for (const char* cap : {"4", "8"}) {
    const Workload w = build(moe_spec(), {{"tokens", "8"}, {"experts", "2"}, {"capacity", cap}});
    EXPECT_EQ(w.node_by_name("dispatch").outputs[0]->shape[1], std::stoll(cap));
    EXPECT_EQ(w.node_by_name("dispatch").outputs[0]->shape[0], 2);
  }
}

}  // namespace
}  // namespace stream::blocks::test
