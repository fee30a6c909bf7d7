// `gqa`: grouped-query attention core (workload-spec §4.2); MQA is groups=1.
#include "blocks.hpp"

namespace stream::blocks {

TensorPtr gqa_core(GraphBuilder& g, const std::string& p, const TensorPtr& q, const TensorPtr& k,
                   const TensorPtr& v) {
  const std::int64_t b = q->shape.at(0), groups = q->shape.at(1), reps = q->shape.at(2), s = q->shape.at(3),
                     e = q->shape.at(4), s_kv = k->shape.at(2);
  // The rep axis (position 2) indexes q and the outputs but not k or v: each K/V head is shared by
  // `reps` query heads.
  TensorPtr scores = g.tensor(p + "scores", {b, groups, reps, s, s_kv});
  g.compute(p + "scores", "MatMul", {q, k}, {scores},
            {dims_map(6, {0, 1, 2, 3, 5}), dims_map(6, {0, 1, 4, 5}), dims_map(6, {0, 1, 2, 3, 4})},
            {"b", "g", "r", "i", "j", "e"});
  TensorPtr probs = g.normalization(p + "softmax", "Softmax", scores, p + "probs", {4});
  TensorPtr context = g.tensor(p + "context", {b, groups, reps, s, e});
  g.compute(p + "context", "MatMul", {probs, v}, {context},
            {dims_map(6, {0, 1, 2, 3, 5}), dims_map(6, {0, 1, 5, 4}), dims_map(6, {0, 1, 2, 3, 4})},
            {"b", "g", "r", "i", "e", "j"});
  return context;
}

BlockSpec gqa_spec() {
  BlockSpec spec;
  spec.key = "gqa";
  spec.label = "Grouped-Query Attention";
  spec.description =
      "Grouped-query attention core: groups of K/V heads each shared by `reps` query heads "
      "(groups=1 is multi-query attention).";
  spec.params = {{"batch", ParamType::Int, "1", "batch size"},
                 {"groups", ParamType::Int, "2", "K/V heads (query groups)"},
                 {"reps", ParamType::Int, "4", "query heads per K/V head"},
                 {"seq", ParamType::Int, "64", "sequence length"},
                 {"d_head", ParamType::Int, "32", "head dimension"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t b = positive_int(params, "gqa", "batch");
    const std::int64_t gr = positive_int(params, "gqa", "groups");
    const std::int64_t r = positive_int(params, "gqa", "reps");
    const std::int64_t s = positive_int(params, "gqa", "seq");
    const std::int64_t e = positive_int(params, "gqa", "d_head");
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr q = g.input("q", {b, gr, r, s, e});
    TensorPtr k = g.input("k", {b, gr, s, e});
    TensorPtr v = g.input("v", {b, gr, s, e});
    TensorPtr context = gqa_core(g, "", q, k, v);
    g.output("context_out", context);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
