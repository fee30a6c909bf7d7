// decompose_workload splices registered decompositions in place.
#include <gtest/gtest.h>

#include <stream/error.hpp>
#include <stream/registry/decompose.hpp>

using namespace stream;

namespace {

TensorPtr t(const std::string& n) { return make_tensor(n, DType::bf16, {4, 8}); }

// A toy decomposition: Twice(x) -> y becomes Half(x) -> mid, Half(mid) -> y, tagged with its origin.
Workload split_twice(const Node& n) {
  auto mid = make_tensor(n.name + "_mid", n.outputs[0]->dtype, n.outputs[0]->shape);
  const auto id = AffineMap::identity(2);
  auto a = make_computation(n.name + "_a", "Half", {n.inputs[0]}, {mid}, {id, id});
  auto b = make_computation(n.name + "_b", "Half", {mid}, {n.outputs[0]}, {id, id});
  a.fused_kernel = b.fused_kernel = "Twice:" + n.name;
  return Workload({make_in_edge(n.name + "_in", n.inputs[0]), a, b, make_out_edge(n.name + "_out", n.outputs[0])});
}

Workload chain() {
  auto x = t("x"), y = t("y"), z = t("z");
  const auto id = AffineMap::identity(2);
  return Workload({make_in_edge("in", x), make_computation("tw", "Twice", {x}, {y}, {id, id}),
                   make_computation("relu", "Relu", {y}, {z}, {id, id}), make_out_edge("out", z)});
}

}  // namespace

TEST(Decompose, ReplacesNodesInPlaceAndKeepsTheRest) {
  Registries r;
  r.decompositions().add("Twice", split_twice, {});
  auto [wl, decomposed] = decompose_workload(chain(), r);
  EXPECT_EQ(decomposed, (std::vector<std::string>{"tw"}));
  std::vector<std::string> names;
  for (const auto& n : wl.nodes()) names.push_back(n.name);
  EXPECT_EQ(names, (std::vector<std::string>{"in", "tw_a", "tw_b", "relu", "out"}));
  EXPECT_EQ(*wl.node_by_name("tw_b").fused_kernel, "Twice:tw");
  // The consumer still reads the original tensor, now produced by the last sub-node.
  EXPECT_EQ(wl.producer_of("y"), wl.index_of("tw_b"));
}

TEST(Decompose, WithoutDecomposersTheWorkloadIsUnchanged) {
  Registries r;
  auto [wl, decomposed] = decompose_workload(chain(), r);
  EXPECT_TRUE(decomposed.empty());
  EXPECT_EQ(wl.size(), 4u);
}

TEST(Decompose, AFailingDecomposerNamesTheNode) {
  Registries r;
  r.decompositions().add("Twice", [](const Node&) -> Workload { throw Error("cannot split"); }, {});
  try {
    (void)decompose_workload(chain(), r);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where().node, "tw");
  }
}
