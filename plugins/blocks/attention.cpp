// `attention`: multi-head attention (workload-spec §4.1).
#include "blocks.hpp"

namespace stream::blocks {

TensorPtr attention_part(GraphBuilder& g, const std::string& p, const TensorPtr& x, std::int64_t heads,
                         std::int64_t d_head) {
  const std::int64_t b = x->shape.at(0), s = x->shape.at(1), d_model = x->shape.at(2);
  TensorPtr qkv[3];
  const char* names[3] = {"q", "k", "v"};
  for (int n = 0; n < 3; ++n) {
    const std::string id = names[n];
    TensorPtr w = g.input(p + "W" + id, {d_model, heads, d_head});
    qkv[n] = g.tensor(p + id, {b, heads, s, d_head});
    g.compute(p + "proj_" + id, "MatMul", {x, w}, {qkv[n]},
              {dims_map(5, {0, 2, 4}), dims_map(5, {4, 1, 3}), dims_map(5, {0, 1, 2, 3})},
              {"b", "h", "s", "e", "k"});
  }
  TensorPtr scores = g.tensor(p + "scores", {b, heads, s, s});
  g.compute(p + "scores", "MatMul", {qkv[0], qkv[1]}, {scores},
            {dims_map(5, {0, 1, 2, 4}), dims_map(5, {0, 1, 3, 4}), dims_map(5, {0, 1, 2, 3})},
            {"b", "h", "i", "j", "e"});
  TensorPtr probs = g.normalization(p + "softmax", "Softmax", scores, p + "probs", {3});
  TensorPtr context = g.tensor(p + "context", {b, heads, s, d_head});
  g.compute(p + "context", "MatMul", {probs, qkv[2]}, {context},
            {dims_map(5, {0, 1, 2, 4}), dims_map(5, {0, 1, 4, 3}), dims_map(5, {0, 1, 2, 3})},
            {"b", "h", "i", "e", "j"});
  TensorPtr wo = g.input(p + "Wo", {heads, d_head, d_model});
  TensorPtr y = g.tensor(p + "y", {b, s, d_model});
  g.compute(p + "out_proj", "MatMul", {context, wo}, {y},
            {dims_map(5, {0, 3, 1, 4}), dims_map(5, {3, 4, 2}), dims_map(5, {0, 1, 2})},
            {"b", "s", "o", "h", "e"});
  return y;
}

BlockSpec attention_spec() {
  BlockSpec spec;
  spec.key = "attention";
  spec.label = "Multi-Head Attention";
  spec.description =
      "Multi-head self-attention: Q/K/V projections, scores, softmax, context and output projection "
      "(d_model = heads * d_head).";
  spec.params = {{"batch", ParamType::Int, "1", "batch size"},
                 {"heads", ParamType::Int, "8", "attention heads"},
                 {"seq", ParamType::Int, "128", "sequence length"},
                 {"d_head", ParamType::Int, "64", "head dimension"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t b = positive_int(params, "attention", "batch");
    const std::int64_t h = positive_int(params, "attention", "heads");
    const std::int64_t s = positive_int(params, "attention", "seq");
    const std::int64_t e = positive_int(params, "attention", "d_head");
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr x = g.input("x", {b, s, h * e});
    TensorPtr y = attention_part(g, "", x, h, e);
    g.output("y", y);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
