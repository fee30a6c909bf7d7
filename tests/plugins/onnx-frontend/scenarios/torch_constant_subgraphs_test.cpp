// Genuine PyTorch 1.13 exports (tests/plugins/onnx-frontend/data/torch_constant_subgraphs.py,
// weights cleared) whose exporters leave computations over constants in the graph: they are
// evaluated at load time and leave no computation node (constant_subgraphs.hpp).
#include "../onnx_test_util.hpp"

using namespace onnx_test;

namespace {

const std::string kData = std::string(STREAM_SOURCE_DIR) + "/tests/plugins/onnx-frontend/data/";

bool has_type(const Workload& w, const std::string& type) {
  return std::any_of(w.nodes().begin(), w.nodes().end(), [&](const Node& n) { return n.type == type; });
}

bool has_name(const Workload& w, const std::string& name) {
  return std::any_of(w.nodes().begin(), w.nodes().end(), [&](const Node& n) { return n.name == name; });
}

TEST(TorchConstantSubgraphs, LlamaRotaryTablesAreConstantsAndGqaRepeatsStayExpands) {
  const auto w = parse_file(kData + "torch_llama_block.onnx");
  // hidden 64, 4 query heads, 2 key/value heads of 16, 8 tokens. The rotary tables
  // (arange(8) (x) inv_freq[8] -> [8, 8], concatenated to [8, 16], Cos / Sin, unsqueezed to
  // [1, 1, 8, 16]) are constants read by the Muls; nothing computes them, nor reads inv_freq.
  for (const auto* type : {"Einsum", "Cos", "Sin", "Range"}) EXPECT_FALSE(has_type(w, type)) << type;
  EXPECT_FALSE(has_name(w, "rot.inv_freq"));
  const auto& q_cos = node(w, "/Mul");
  ASSERT_EQ(q_cos.inputs.size(), 2u);
  EXPECT_EQ(q_cos.inputs[1]->shape, (std::vector<std::int64_t>{1, 1, 8, 16}));
  EXPECT_EQ(q_cos.inputs[1]->name.rfind("/rot/", 0), 0u);
  // repeat_kv: k and v [1, 2, 8, 16] expanded to [1, 2, 2, 8, 16] (2 repeats of 2 kv heads).
  EXPECT_EQ(node(w, "/Expand").outputs[0]->shape, (std::vector<std::int64_t>{1, 2, 2, 8, 16}));
  EXPECT_EQ(node(w, "/Expand_1").outputs[0]->shape, (std::vector<std::int64_t>{1, 2, 2, 8, 16}));
  // scores q k^T per (kv head, repeat): dims (1, 2, 2, m=8, n=8, k=16).
  EXPECT_EQ(sizes(node(w, "/MatMul")), (std::vector<std::int64_t>{1, 2, 2, 8, 8, 16}));
  // 28 computation nodes as exported, less Einsum, the table's Concat, Cos and Sin.
  EXPECT_EQ(w.computation_nodes().size(), 24u);
}

TEST(TorchConstantSubgraphs, SwinRelativePositionBiasIsAConstant) {
  const auto w = parse_file(kData + "torch_swin_window.onnx");
  // window 4: 16 tokens, 2 heads; the index (ScatterND/ReduceSum over meshgrid coordinates) and
  // the bias gathered from the [49, 2] table by it are constants: the score Add reads a
  // [1, 2, 16, 16] constant, and nothing reads the table.
  for (const auto* type : {"ScatterND", "ReduceSum"}) EXPECT_FALSE(has_type(w, type)) << type;
  EXPECT_FALSE(has_name(w, "table"));
  const auto& add = node(w, "/Add_1");
  ASSERT_EQ(add.inputs.size(), 2u);
  EXPECT_EQ(add.inputs[1]->shape, (std::vector<std::int64_t>{1, 2, 16, 16}));
  EXPECT_EQ(sizes(add), (std::vector<std::int64_t>{2, 2, 16, 16}));
  // qkv MatMul and bias Add, the three q/k/v Gathers, two MatMuls, the score Add and the Softmax
  // (10 as exported: the bias Gather from the table is gone).
  EXPECT_EQ(w.computation_nodes().size(), 9u);
}

}  // namespace

namespace {

TEST(TorchConstantSubgraphs, TorchvisionSwinShiftedWindowMaskIsAConstant) {
  // inputs/workload/exported/swin_op17.onnx (torchvision SwinTransformer, 64x64 input, patch 4,
  // window 4, heads [2, 4]): the shifted-window attention mask is int64/float arithmetic over
  // constants (slices of an image mask, ScatterND, window partition, Sub, Equal, Where). Before
  // its evaluation the frontend stopped with "unsupported element type INT64".
  const auto w = parse_file(std::string(STREAM_INPUTS_DIR) + "/workload/exported/swin_op17.onnx");
  for (const auto* type : {"ScatterND", "Range", "Where", "Equal"}) EXPECT_FALSE(has_type(w, type)) << type;
  // Stage 1's shifted block adds the mask to its scores: 16x16 tokens make 4x4 = 16 windows of
  // 16 tokens, so the mask holds 16 * 16 * 16 = 4096 values (its shape refined by layout folding).
  const auto& add = node(w, "/features/features.1/features.1.1/attn/Add_11");
  ASSERT_EQ(add.inputs.size(), 2u);
  const auto& mask = *add.inputs[1];
  EXPECT_EQ(node(w, mask.name).kind, NodeKind::InEdge);
  std::int64_t count = 1;
  for (auto d : mask.shape) count *= d;
  EXPECT_EQ(count, 16 * 16 * 16);
}

}  // namespace
