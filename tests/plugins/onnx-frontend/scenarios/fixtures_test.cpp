// The committed fixtures (inputs/workload/) and every ONNX file of the reference's inputs parse
// with the node counts and loop sizes of workload spec §8 (corrected where §9 marks a defect).
#include <map>

#include <stream/ir/dimensions.hpp>

#include "../onnx_test_util.hpp"

using namespace onnx_test;

namespace {

std::string reference_file(const std::string& file) { return std::string(STREAM_TEST_DATA_DIR) + "/reference/stream-inputs/workload/" + file; }
std::string fixture(const std::string& file) { return std::string(STREAM_INPUTS_DIR) + "/workload/" + file; }

std::map<std::string, int> type_counts(const Workload& w) {
  std::map<std::string, int> out;
  for (const auto* n : computations(w)) ++out[n->type];
  return out;
}

void expect_two_conv(const Workload& w, std::int64_t hw, std::int64_t c, std::int64_t k1, std::int64_t k2) {
  EXPECT_EQ(w.size(), 6u);
  EXPECT_EQ(count_kind(w, NodeKind::InEdge), 3u);
  EXPECT_EQ(count_kind(w, NodeKind::OutEdge), 1u);
  EXPECT_EQ(w.edges().size(), 5u);
  const auto convs = computations(w);
  ASSERT_EQ(convs.size(), 2u);
  for (const auto* n : convs) {
    EXPECT_EQ(map_of(*n, 0), "(d0, d5, ((d2 + d4) + -1), ((d1 + d3) + -1))");
    EXPECT_EQ(map_of(*n, 1), "(d6, d5, d4, d3)");
    EXPECT_EQ(map_of(*n, 2), "(d0, d6, d2, d1)");
    EXPECT_EQ(kinds(*n), "PPPRRRP");
  }
  EXPECT_EQ(sizes(*convs[0]), (std::vector<std::int64_t>{1, hw, hw, 3, 3, c, k1}));
  EXPECT_EQ(sizes(*convs[1]), (std::vector<std::int64_t>{1, hw, hw, 3, 3, k1, k2}));
  // 14 loop dims; batch and Conv1.k = Conv2.c are shared: 12 unique.
  EXPECT_EQ(w.unified_dimensions().num_unique(), 12u);
}

TEST(Fixtures, TwoConvDefaultWorkload) {
  auto w = parse_file(fixture("2conv_1_8_32_32_16_32_3.onnx"));
  expect_two_conv(w, 32, 8, 16, 32);
  for (const auto& t : w.tensors()) EXPECT_EQ(t->dtype, DType::bf16) << t->name;
}

TEST(Reference, TwoConvFiles) {
  expect_two_conv(parse_file(reference_file("2conv_1_8_32_32_16_32_3.onnx")), 32, 8, 16, 32);
  expect_two_conv(parse_file(reference_file("2_conv.onnx")), 56, 8, 8, 8);
}

void expect_swiglu(const Workload& w, std::int64_t s, std::int64_t e, std::int64_t h) {
  EXPECT_EQ(w.size(), 10u);
  EXPECT_EQ(w.edges().size(), 10u);
  for (const char* g : {"Gemm_Left", "Gemm_Right", "Gemm_Down"}) {
    const auto& n = node(w, g);
    EXPECT_EQ(map_of(n, 0), "(d0, d1)");
    EXPECT_EQ(map_of(n, 1), "(d1, d2)");
    EXPECT_EQ(kinds(n), "PRP");
  }
  EXPECT_EQ(sizes(node(w, "Gemm_Left")), (std::vector<std::int64_t>{s, e, h}));
  EXPECT_EQ(sizes(node(w, "Gemm_Right")), (std::vector<std::int64_t>{s, e, h}));
  EXPECT_EQ(sizes(node(w, "Elt_Mul")), (std::vector<std::int64_t>{s, h}));
  EXPECT_EQ(sizes(node(w, "Gemm_Down")), (std::vector<std::int64_t>{s, h, e}));
  EXPECT_EQ(w.unified_dimensions().num_unique(), 4u);
}

TEST(Fixtures, SwigluWithCustomDomainSilu) {
  auto w = parse_file(fixture("swiglu_1_16_32.onnx"));
  expect_swiglu(w, 1, 16, 32);
  const auto& silu = node(w, "Silu");
  EXPECT_EQ(silu.type, "Silu");
  EXPECT_EQ(sizes(silu), (std::vector<std::int64_t>{1, 32}));
  for (const auto& t : w.tensors()) EXPECT_EQ(t->dtype, DType::bf16) << t->name;
}

TEST(Reference, SwigluFiles) {
  expect_swiglu(parse_file(reference_file("swiglu_1_16_32.onnx")), 1, 16, 32);
  expect_swiglu(parse_file(reference_file("swiglu_64_128_256.onnx")), 64, 128, 256);
  for (std::int64_t s : {256, 512, 1024, 2048, 4096})
    expect_swiglu(parse_file(reference_file("swiglu_" + std::to_string(s) + "_4096_14336.onnx")), s, 4096, 14336);
}

TEST(Reference, AttentionHeadTransposeFolds) {
  auto w = parse_file(reference_file("attention_head.onnx"));
  // 12 nodes in the reference, minus the Transpose FusionEdge Op3 that now folds.
  EXPECT_EQ(w.size(), 11u);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  EXPECT_EQ(type_counts(w), (std::map<std::string, int>{{"MatMul", 5}, {"Softmax", 1}}));
  for (const auto* n : computations(w)) {
    const auto k = kinds(*n);
    if (n->type == "MatMul") {
      EXPECT_EQ(std::count(k.begin(), k.end(), 'R'), 1) << n->name;
    }
  }
  EXPECT_EQ(node(w, "Op5").reduction_axes, (std::vector<int>{1}));
  // Op4 = MatMul(Q, Kt) reads K[j, e] directly: dims (i, j, e).
  EXPECT_EQ(node(w, "Op4").inputs[1]->name, "K");
  EXPECT_EQ(map_of(node(w, "Op4"), 1), "(d1, d2)");
  EXPECT_EQ(sizes(node(w, "Op0")), (std::vector<std::int64_t>{128, 64, 512}));
  EXPECT_EQ(sizes(node(w, "Op4")), (std::vector<std::int64_t>{128, 128, 64}));
  EXPECT_EQ(sizes(node(w, "Op6")), (std::vector<std::int64_t>{128, 64, 128}));
}

TEST(Reference, Fsrcnn) {
  auto w = parse_file(reference_file("fsrcnn.onnx"));
  EXPECT_EQ(w.size(), 18u);
  EXPECT_EQ(w.edges().size(), 17u);
  EXPECT_EQ(type_counts(w), (std::map<std::string, int>{{"Conv", 8}}));
  EXPECT_EQ(sizes(node(w, "custom_added_Conv1")), (std::vector<std::int64_t>{1, 960, 540, 5, 5, 1, 56}));
  EXPECT_EQ(w.unified_dimensions().num_unique(), 39u);
  for (const auto& t : w.tensors()) EXPECT_EQ(t->dtype, DType::i8) << t->name;
  EXPECT_TRUE(w.successors(w.index_of("weights_3")).empty());
}

TEST(Reference, Resnet18) {
  auto w = parse_file(reference_file("resnet18.onnx"));
  EXPECT_EQ(type_counts(w), (std::map<std::string, int>{
                                {"Add", 8}, {"Conv", 20}, {"Gemm", 1}, {"GlobalAveragePool", 1}, {"MaxPool", 1}, {"Relu", 17}}));
  EXPECT_EQ(count_kind(w, NodeKind::InEdge), 43u);
  EXPECT_EQ(count_kind(w, NodeKind::OutEdge), 1u);
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);  // the Flatten folds
  EXPECT_EQ(w.size(), 92u);
  const auto& stem = node(w, "/conv1/Conv");
  EXPECT_EQ(map_of(stem, 0), "(d0, d5, (((d2 * 2) + d4) + -3), (((d1 * 2) + d3) + -3))");
  EXPECT_EQ(sizes(stem), (std::vector<std::int64_t>{1, 112, 112, 7, 7, 3, 64}));
  EXPECT_EQ(sizes(node(w, "/maxpool/MaxPool")), (std::vector<std::int64_t>{1, 64, 56, 56, 3, 3}));
  EXPECT_EQ(sizes(node(w, "/avgpool/GlobalAveragePool")), (std::vector<std::int64_t>{1, 512, 1, 1, 7, 7}));
  // transB honoured: n = 1000 (the reference read 512); the folded Flatten leaves k = 512.
  EXPECT_EQ(sizes(node(w, "/fc/Gemm")), (std::vector<std::int64_t>{1, 512, 1000}));
  std::int64_t total = 0;
  for (const auto* n : computations(w)) total += n->num_dims();
  EXPECT_EQ(total, 255);
  // 87 unique dims with the Flatten as a FusionEdge; folded, the Gemm's m and k become the
  // pooled tensor's batch and channel axes: two fewer.
  const auto& u = w.unified_dimensions();
  EXPECT_EQ(u.num_unique(), 85u);
  std::set<std::int64_t> dim_sizes(u.dim_size.begin(), u.dim_size.end());
  for (std::int64_t s : {112, 56, 28, 14, 7, 64, 128, 256, 512, 3}) EXPECT_EQ(dim_sizes.count(s), 1u) << s;
}

TEST(Fixtures, ThreeAttentionStylesParseToTheSameNodes) {
  auto torch = parse_file(fixture("attention_pytorch.onnx"));
  auto jax = parse_file(fixture("attention_jax.onnx"));
  auto per_head = parse_file(fixture("attention_per_head.onnx"));
  for (const auto* w : {&torch, &jax, &per_head}) EXPECT_EQ(count_kind(*w, NodeKind::FusionEdge), 0u);
  const auto expected = signature(torch);
  ASSERT_EQ(expected.size(), 7u);
  EXPECT_EQ(signature(jax), expected);
  EXPECT_EQ(signature(per_head), expected);
  // The projection: (b, s, h, e) parallel, the model dimension reduced.
  EXPECT_EQ(std::count(expected.begin(), expected.end(), "MatMul:1P,64P,8P,128P,512R,"), 0);
  EXPECT_EQ(std::count(expected.begin(), expected.end(), "MatMul:1P,8P,64P,128P,512R,"), 3);
  // The output projection contracts heads and head dimension.
  EXPECT_EQ(std::count(expected.begin(), expected.end(), "MatMul:1P,8R,64R,128P,512P,"), 1);
  EXPECT_EQ(std::count(expected.begin(), expected.end(), "Softmax:1P,8P,128P,128P,"), 1);
  // The same axes workload-wide: batch, query position, key position, head, q/k head dim,
  // v head dim, model dim in, model dim out.
  for (const auto* w : {&torch, &jax, &per_head}) EXPECT_EQ(w->unified_dimensions().num_unique(), 8u);
}

TEST(Fixtures, PytorchAttentionRefinesWeightsAndActivations) {
  auto w = parse_file(fixture("attention_pytorch.onnx"));
  const auto& q = node(w, "proj_q");
  EXPECT_EQ(q.inputs[1]->name, "Wq");
  EXPECT_EQ(q.inputs[1]->shape, (std::vector<std::int64_t>{512, 8, 64}));
  EXPECT_EQ(q.outputs[0]->shape, (std::vector<std::int64_t>{1, 128, 8, 64}));
  const auto& out = node(w, "out_proj");
  EXPECT_EQ(out.inputs[1]->shape, (std::vector<std::int64_t>{8, 64, 512}));
  EXPECT_EQ(out.inputs[0]->name, "context");
  EXPECT_EQ(node(w, "softmax").reduction_axes, (std::vector<int>{3}));
}

TEST(Fixtures, PerHeadReduceSumFoldsIntoTheOutputProjection) {
  auto w = parse_file(fixture("attention_per_head.onnx"));
  EXPECT_THROW((void)w.index_of("sum_heads"), Error);
  const auto& out = node(w, "out_proj");
  EXPECT_EQ(out.outputs[0]->name, "y");
  EXPECT_EQ(out.outputs[0]->shape, (std::vector<std::int64_t>{1, 128, 512}));
  EXPECT_EQ(kinds(out), "PRPPR");
}

TEST(Fixtures, QdqConvBlockRunsInInt8) {
  auto w = parse_file(fixture("qdq_conv_int8.onnx"));
  EXPECT_EQ(type_counts(w), (std::map<std::string, int>{{"Cast", 2}, {"Conv", 1}, {"Relu", 1}}));
  const auto& conv = node(w, "conv");
  EXPECT_EQ(conv.inputs[0]->dtype, DType::i8);
  EXPECT_EQ(conv.inputs[1]->dtype, DType::i8);
  EXPECT_EQ(conv.outputs[0]->dtype, DType::i8);  // the requantization folded into the conv
  EXPECT_EQ(conv.outputs[0]->name, "conv_q");
  const auto& relu = node(w, "relu");
  EXPECT_EQ(relu.inputs[0]->dtype, DType::i8);
  EXPECT_EQ(relu.outputs[0]->dtype, DType::i8);
  const auto& in_cast = node(w, "quant_input");
  EXPECT_EQ(in_cast.inputs[0]->dtype, DType::f32);
  EXPECT_EQ(in_cast.outputs[0]->dtype, DType::i8);
  const auto& out_cast = node(w, "dequant_output");
  EXPECT_EQ(out_cast.outputs[0]->dtype, DType::f32);
  // Scales and zero points are metadata: no InEdges.
  for (const char* meta : {"scale", "zero_point", "w_scale", "w_zero_point", "b_scale", "b_zero_point"})
    EXPECT_THROW((void)w.index_of(meta), Error) << meta;
}

TEST(Fixtures, ResidualBlock) {
  auto w = parse_file(fixture("residual_block.onnx"));
  EXPECT_EQ(type_counts(w), (std::map<std::string, int>{{"Add", 1}, {"Conv", 2}, {"Relu", 2}}));
  const auto& add = node(w, "Add1");
  EXPECT_EQ(add.inputs[1]->name, "input");
  EXPECT_EQ(w.predecessors(w.index_of("Add1")).size(), 2u);  // Conv2 and the block input
  EXPECT_EQ(sizes(node(w, "Conv2")), (std::vector<std::int64_t>{1, 16, 16, 3, 3, 16, 16}));
}

TEST(Fixtures, CnnWithConcatAndPooling) {
  auto w = parse_file(fixture("cnn_concat_pool.onnx"));
  EXPECT_EQ(count_kind(w, NodeKind::FusionEdge), 0u);
  EXPECT_EQ(sizes(node(w, "pool")), (std::vector<std::int64_t>{1, 16, 16, 16, 2, 2}));
  EXPECT_EQ(sizes(node(w, "concat")), (std::vector<std::int64_t>{1, 32, 16, 16}));
  EXPECT_EQ(map_of(node(w, "concat"), 1), "(d0, (d1 + -8), d2, d3)");
  EXPECT_EQ(sizes(node(w, "avgpool")), (std::vector<std::int64_t>{1, 32, 16, 16, 3, 3}));
  // Flatten [1,32,1,1] -> [1,32] folds: the classifier reads the pooled tensor at (m, k, 0, 0).
  const auto& fc = node(w, "fc");
  EXPECT_EQ(fc.inputs[0]->name, "gap");
  EXPECT_EQ(map_of(fc, 0), "(d0, d1, 0, 0)");
  EXPECT_EQ(sizes(fc), (std::vector<std::int64_t>{1, 32, 10}));
}

}  // namespace
