// The Mamba block (mamba.cpp) against workload-spec §4: node order, shapes, maps, iterator kinds,
// dtype and the measured node / edge / total-dim / unique-dim counts.
#include <gtest/gtest.h>

#include <stream/error.hpp>

#include "block_test_util.hpp"

namespace stream::blocks::test {
namespace {

using Shape = std::vector<std::int64_t>;

TEST(MambaBlock, WiringKindsAndFigures) {
  const Workload w = build(mamba_spec());  // L=256 D=512 N=16
  EXPECT_EQ(names(w), (std::vector<std::string>{"delta", "A", "B", "C", "x", "D_skip", "h_prev", "dA", "Abar", "dB",
                                                 "dBx", "scan", "readout", "skip", "out", "y"}));
  EXPECT_EQ(w.edges().size(), 17u);
  EXPECT_EQ(total_dims(w), 22);
  EXPECT_EQ(unique_dims(w), 3u);
  EXPECT_EQ(w.unified_dimensions().relations.size(), 19u);
  auto in_names = [&](const std::string& node) {
    std::vector<std::string> out;
    for (const auto& t : w.node_by_name(node).inputs) out.push_back(t->name);
    out.push_back("->" + w.node_by_name(node).outputs.at(0)->name);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(in_names("dA"), (V{"delta", "A", "->dA"}));
  EXPECT_EQ(in_names("Abar"), (V{"dA", "->Abar"}));
  EXPECT_EQ(w.node_by_name("Abar").type, "Exp");
  EXPECT_EQ(in_names("dB"), (V{"delta", "B", "->dB"}));
  EXPECT_EQ(in_names("dBx"), (V{"dB", "x", "->dBx"}));
  EXPECT_EQ(in_names("scan"), (V{"Abar", "h_prev", "dBx", "->h"}));
  EXPECT_EQ(in_names("readout"), (V{"C", "h", "->y_ssm"}));
  EXPECT_EQ(in_names("skip"), (V{"D_skip", "x", "->Dx"}));
  EXPECT_EQ(in_names("out"), (V{"y_ssm", "Dx", "->y"}));
  const Node& scan = w.node_by_name("scan");
  EXPECT_EQ(scan.type, "SelectiveScan");
  EXPECT_EQ(kinds(scan), "SPP");
  EXPECT_EQ(loop_sizes(scan), (Shape{256, 512, 16}));
  EXPECT_EQ(kinds(w.node_by_name("readout")), "PPR");
  EXPECT_EQ(positions(w.node_by_name("readout"), IteratorKind::Reduction), (std::vector<int>{2}));
  EXPECT_EQ(kinds(w.node_by_name("dA")), "PPP");
  EXPECT_EQ(w.node_by_name("dA").operand_mapping[1], m(3, {1, 2}));
  EXPECT_EQ(w.node_by_name("skip").operand_mapping[0], m(2, {1}));
}

}  // namespace
}  // namespace stream::blocks::test
