// Graph inputs and outputs keep the model's shape when layout folding splits their axes
// (Tensor::declared_shape). ONNX's test_flexattention_gqa_expanded_ver26 (data/onnx_conformance/
// README.md) repeats K and V over the query heads by Unsqueeze/Expand/Reshape; folding the Reshapes
// splits the 8 query heads into (2 KV heads, 4 repeats) in every node, the graph input Q and the
// output Y included. The expected shapes are ONNX's (test_data_set_0/output_0.pb: Y [2, 8, 4, 16]);
// the split ones are what the nodes index, with the same elements.
#include <numeric>

#include "../onnx_test_util.hpp"

using namespace onnx_test;

namespace {

const Node& edge(const Workload& w, NodeKind kind, const std::string& name) {
  for (auto i : w.nodes_of_kind(kind))
    if (w.node(i).name == name) return w.node(i);
  throw std::runtime_error("no edge " + name);
}

std::int64_t product(const std::vector<std::int64_t>& s) {
  return std::accumulate(s.begin(), s.end(), std::int64_t{1}, std::multiplies<>());
}

TEST(ConformanceFoldedEdges, GraphInputsAndOutputsKeepTheModelsShape) {
  const auto dir = std::string(STREAM_SOURCE_DIR) + "/tests/plugins/onnx-frontend/data/onnx_conformance/";
  Workload w = parse_file(dir + "test_flexattention_gqa_expanded_ver26.onnx");
  const auto& y = *edge(w, NodeKind::OutEdge, "Y").inputs[0];
  EXPECT_EQ(y.model_shape(), (std::vector<std::int64_t>{2, 8, 4, 16}));
  EXPECT_EQ(y.shape, (std::vector<std::int64_t>{2, 2, 4, 4, 16}));  // heads split as (KV heads, repeats)
  const auto& q = *edge(w, NodeKind::InEdge, "Q").outputs[0];
  EXPECT_EQ(q.model_shape(), (std::vector<std::int64_t>{2, 8, 4, 16}));
  EXPECT_EQ(product(q.shape), product(q.model_shape()));
  // K and V are read as given: their shape is the model's.
  const auto& k = *edge(w, NodeKind::InEdge, "K").outputs[0];
  EXPECT_TRUE(k.declared_shape.empty());
  EXPECT_EQ(k.model_shape(), (std::vector<std::int64_t>{2, 2, 6, 16}));
}

}  // namespace
