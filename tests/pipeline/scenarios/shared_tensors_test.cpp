// Tensors that leave a fusion group and are also read inside it (issue 11), on small ONNX models
// shaped like exporter output, mapped end to end with automatic mapping and automatic cut points
// on the TPU-like quad core. Such a tensor is one of its group's outputs, written off-chip once,
// and its in-group consumers read the producer's on-chip copy (no off-chip round trip).
//
// Cut points (fusion_groups.hpp): every MaxPool, and the Relu that is the only compute successor
// of an Add, never the last compute node. The dataflow order takes the ready node inserted first,
// so every group below follows from the node order of the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <stream/hardware/accelerator_reader.hpp>
#include <stream/pipeline/run.hpp>
#include <stream/registry/registries.hpp>

#include "../../plugins/onnx-frontend/onnx_test_util.hpp"
#include "bundled_hardware.hpp"

using namespace stream;
using namespace stream::onnx_testing;
using schedule::SsKind;
using schedule::SteadyState;
using schedule::TransferType;

namespace {

// Conv over [1, c_in, 8, 8] to [1, c_out, 8, 8]: kernel k, pad (k - 1) / 2.
void conv(ModelBuilder& m, const std::string& name, const std::string& in, const std::string& out, std::int64_t c_in,
          std::int64_t c_out, std::int64_t k) {
  const std::int64_t p = (k - 1) / 2;
  m.initializer(name + ".weight", F32, {c_out, c_in, k, k});
  m.node("Conv", {in, name + ".weight"}, {out}, name).attr("kernel_shape", Shape{k, k}).attr("pads", Shape{p, p, p, p});
}

// The 3x3, stride 1, pad 1 MaxPool (GoogLeNet's pool branch): same shape, and a cut point.
void same_maxpool(ModelBuilder& m, const std::string& name, const std::string& in, const std::string& out) {
  m.node("MaxPool", {in}, {out}, name).attr("kernel_shape", Shape{3, 3}).attr("strides", Shape{1, 1}).attr("pads", Shape{1, 1, 1, 1});
}

// Runs the pipeline twice; both runs must allocate every group and agree on the total.
pipeline::RunResult run_twice(const Workload& w) {
  const auto r = pipeline::run(w, test::bundled_accelerator());
  EXPECT_TRUE(r.solved());
  for (const auto& g : r.groups) EXPECT_TRUE(g.allocation.solved()) << "group " << g.index << "\n" << g.allocation.infeasibility;
  EXPECT_GT(r.total_latency, 0);
  EXPECT_EQ(pipeline::run(w, test::bundled_accelerator()).total_latency, r.total_latency);
  return r;
}

// Index of the group whose workload has a node named `node`.
std::size_t group_of(const pipeline::RunResult& r, const std::string& node) {
  for (std::size_t g = 0; g < r.groups.size(); ++g)
    for (const auto& n : r.groups[g].workload.nodes())
      if (n.name == node) return g;
  ADD_FAILURE() << "no group holds " << node;
  return 0;
}

// Transfers of `ss` that write a tensor named `tensor` onto the off-chip core.
int offchip_writes(const SteadyState& ss, const std::string& tensor) {
  int k = 0;
  for (const auto& n : ss.nodes)
    if (n.kind == SsKind::Transfer && n.cores == std::vector<int>{ss.offchip_core})
      for (int o : n.outputs)
        if (ss.tensors[static_cast<std::size_t>(o)].name == tensor) ++k;
  return k;
}

// The node that produces what `consumer` reads in place of `tensor` (its operand named
// `tensor` or a transfer copy `<tensor>_...`): a transfer.
const schedule::SsNode& feeding_transfer(const SteadyState& ss, const std::string& consumer, const std::string& tensor) {
  const auto& c = ss.nodes.at(static_cast<std::size_t>(ss.node_index(consumer)));
  for (int t : c.inputs) {
    const auto& st = ss.tensors[static_cast<std::size_t>(t)];
    if (st.name == tensor || st.name.rfind(tensor + "_", 0) == 0) return ss.nodes.at(static_cast<std::size_t>(st.producer));
  }
  ADD_FAILURE() << consumer << " reads no copy of " << tensor;
  return c;
}

// `consumer` reads `tensor` on chip: through one COMPUTE_TO_COMPUTE transfer straight from the
// output of compute node `producer`, not from anything off-chip.
void expect_read_on_chip(const SteadyState& ss, const std::string& consumer, const std::string& tensor,
                         const std::string& producer) {
  const auto& tr = feeding_transfer(ss, consumer, tensor);
  ASSERT_EQ(tr.kind, SsKind::Transfer) << consumer;
  EXPECT_EQ(tr.transfer_type, TransferType::ComputeToCompute) << tr.name;
  const auto& src = ss.tensors[static_cast<std::size_t>(tr.inputs.front())];
  EXPECT_EQ(ss.nodes[static_cast<std::size_t>(src.producer)].name, producer) << tr.name;
  EXPECT_NE(src.placements, std::vector<std::vector<int>>{{ss.offchip_core}}) << tr.name;
}

// `consumer` (in a later group) reads `tensor` from off-chip: a MEM_TO_COMPUTE transfer of the
// group's InEdge.
void expect_read_from_offchip(const SteadyState& ss, const std::string& consumer, const std::string& tensor) {
  const auto& tr = feeding_transfer(ss, consumer, tensor);
  EXPECT_EQ(tr.transfer_type, TransferType::MemToCompute) << tr.name;
  const auto& src = ss.tensors[static_cast<std::size_t>(tr.inputs.front())];
  EXPECT_EQ(ss.nodes[static_cast<std::size_t>(src.producer)].kind, SsKind::InEdge) << tr.name;
}

}  // namespace

// (a) A dense block: c1 = Concat(x0, x1) feeds BN1 (its dense layer, in the group) and the block's
// final Concat after the MaxPool cut. Order Conv_a, Conv_b, Concat1, BN1, Relu1, MaxPool1 | Conv_c,
// Concat2: two groups, c1 leaving group 0 as a bridge.
TEST(SharedTensors, DenseBlockConcatCrossingAMaxPoolCut) {
  ModelBuilder m("dense_block");
  m.input("x", F32, {1, 8, 8, 8}).output("y", F32);
  conv(m, "Conv_a", "x", "x0", 8, 8, 3);
  conv(m, "Conv_b", "x0", "x1", 8, 8, 3);
  m.node("Concat", {"x0", "x1"}, {"c1"}, "Concat1").attr("axis", 1);
  for (const char* p : {"scale", "bias", "mean", "var"}) m.initializer(std::string("bn1.") + p, F32, {16});
  m.node("BatchNormalization", {"c1", "bn1.scale", "bn1.bias", "bn1.mean", "bn1.var"}, {"b1"}, "BN1");
  m.node("Relu", {"b1"}, {"r1"}, "Relu1");
  same_maxpool(m, "MaxPool1", "r1", "p1");
  conv(m, "Conv_c", "p1", "x2", 16, 8, 3);
  m.node("Concat", {"c1", "x2"}, {"y"}, "Concat2").attr("axis", 1);
  const Workload w = onnx_test::parse(m);

  const auto r = run_twice(w);
  ASSERT_EQ(r.groups.size(), 2u);
  ASSERT_EQ(group_of(r, "Concat1"), 0u);
  ASSERT_EQ(group_of(r, "Concat2"), 1u);
  const auto& g0 = r.groups[0].schedule;
  EXPECT_EQ(offchip_writes(g0, "c1"), 1);  // c1 leaves group 0 once
  expect_read_on_chip(g0, "BN1", "c1", "Concat1");
  expect_read_from_offchip(r.groups[1].schedule, "Concat2", "c1");
}

// (b) An Inception block after a Concat: c feeds the 1x1 branch Conv_3 and the pool branch's
// MaxPool (a cut) in group 0 and the later 1x1 branch branch5_Conv in group 1. The automatic path
// orders ready nodes by name (ir/name_order.hpp; uppercase before lowercase): Conv_1, Conv_2,
// Concat, Conv_3, MaxPool | Conv_4, branch5_Conv, Concat_out.
TEST(SharedTensors, InceptionConcatFeedingAConvAndALaterBranch) {
  ModelBuilder m("inception_block");
  m.input("x", F32, {1, 8, 8, 8}).output("y", F32);
  conv(m, "Conv_1", "x", "a", 8, 8, 1);
  conv(m, "Conv_2", "x", "b", 8, 8, 3);
  m.node("Concat", {"a", "b"}, {"c"}, "Concat").attr("axis", 1);
  conv(m, "Conv_3", "c", "d", 16, 8, 1);
  same_maxpool(m, "MaxPool", "c", "e");
  conv(m, "Conv_4", "e", "f", 16, 8, 1);
  conv(m, "branch5_Conv", "c", "g", 16, 8, 1);
  m.node("Concat", {"d", "f", "g"}, {"y"}, "Concat_out").attr("axis", 1);
  const Workload w = onnx_test::parse(m);

  const auto r = run_twice(w);
  ASSERT_EQ(r.groups.size(), 2u);
  ASSERT_EQ(group_of(r, "Conv_3"), 0u);
  ASSERT_EQ(group_of(r, "branch5_Conv"), 1u);
  const auto& g0 = r.groups[0].schedule;
  EXPECT_EQ(offchip_writes(g0, "c"), 1);
  // Both in-group readers take Concat's on-chip output, through one transfer with a copy each.
  expect_read_on_chip(g0, "Conv_3", "c", "Concat");
  expect_read_on_chip(g0, "MaxPool", "c", "Concat");
  EXPECT_EQ(&feeding_transfer(g0, "Conv_3", "c"), &feeding_transfer(g0, "MaxPool", "c"));
  expect_read_from_offchip(r.groups[1].schedule, "branch5_Conv", "c");
}

// (c) A residual whose source t = Relu0(Conv0(x)) is read by Conv1 before a MaxPool cut and by
// the Add after it. Order Conv0, Relu0, Conv1, MaxPool | Conv2, Add, Relu_out (the Relu after the
// Add is the last compute node, so no cut).
TEST(SharedTensors, ResidualCrossingAMaxPoolCut) {
  ModelBuilder m("residual_maxpool");
  m.input("x", F32, {1, 8, 8, 8}).output("y", F32);
  conv(m, "Conv0", "x", "h", 8, 8, 3);
  m.node("Relu", {"h"}, {"t"}, "Relu0");
  conv(m, "Conv1", "t", "u", 8, 8, 3);
  same_maxpool(m, "MaxPool", "u", "p");
  conv(m, "Conv2", "p", "v", 8, 8, 3);
  m.node("Add", {"v", "t"}, {"s"}, "Add");
  m.node("Relu", {"s"}, {"y"}, "Relu_out");
  const Workload w = onnx_test::parse(m);

  const auto r = run_twice(w);
  ASSERT_EQ(r.groups.size(), 2u);
  ASSERT_EQ(group_of(r, "Conv1"), 0u);
  ASSERT_EQ(group_of(r, "Add"), 1u);
  EXPECT_EQ(offchip_writes(r.groups[0].schedule, "t"), 1);
  expect_read_on_chip(r.groups[0].schedule, "Conv1", "t", "Relu0");
  expect_read_from_offchip(r.groups[1].schedule, "Add", "t");
}

// (c') ShuffleNet/ResNet style: the skip t crosses the cut at Relu1, the only successor of Add1.
// Order Conv0, Relu0, Conv1, Add1, Relu1 | Conv2, Add2.
TEST(SharedTensors, ResidualCrossingAReluAfterAddCut) {
  ModelBuilder m("residual_relu");
  m.input("x", F32, {1, 8, 8, 8}).output("y", F32);
  conv(m, "Conv0", "x", "h", 8, 8, 3);
  m.node("Relu", {"h"}, {"t"}, "Relu0");
  conv(m, "Conv1", "t", "u", 8, 8, 3);
  m.node("Add", {"u", "x"}, {"s"}, "Add1");
  m.node("Relu", {"s"}, {"r"}, "Relu1");
  conv(m, "Conv2", "r", "v", 8, 8, 1);
  m.node("Add", {"v", "t"}, {"y"}, "Add2");
  const Workload w = onnx_test::parse(m);

  const auto r = run_twice(w);
  ASSERT_EQ(r.groups.size(), 2u);
  ASSERT_EQ(group_of(r, "Relu1"), 0u);
  ASSERT_EQ(group_of(r, "Add2"), 1u);
  EXPECT_EQ(offchip_writes(r.groups[0].schedule, "t"), 1);
  expect_read_on_chip(r.groups[0].schedule, "Conv1", "t", "Relu0");
  expect_read_from_offchip(r.groups[1].schedule, "Add2", "t");
}

// (d) An attention block returning its KV cache: K = x Wk is a graph output and the scores MatMul
// reads it (through the Transpose, which folds into the MatMul). No MaxPool, no Add: one group.
TEST(SharedTensors, GraphOutputAlsoReadInsideItsGroup) {
  ModelBuilder m("kv_cache");
  m.input("x", F32, {1, 16, 32}).output("K", F32).output("scores", F32);
  m.initializer("Wq", F32, {32, 32}).initializer("Wk", F32, {32, 32});
  m.node("MatMul", {"x", "Wq"}, {"Q"}, "q_proj");
  m.node("MatMul", {"x", "Wk"}, {"K"}, "k_proj");
  m.node("Transpose", {"K"}, {"Kt"}, "k_t").attr("perm", Shape{0, 2, 1});
  m.node("MatMul", {"Q", "Kt"}, {"scores"}, "qk");
  const Workload w = onnx_test::parse(m);

  const auto r = run_twice(w);
  ASSERT_EQ(r.groups.size(), 1u);
  const auto& ss = r.groups[0].schedule;
  EXPECT_EQ(offchip_writes(ss, "K"), 1);  // the graph output, written once
  expect_read_on_chip(ss, "qk", "K", "k_proj");
}
