// `kv_cache`: one decode step against a KV cache (workload-spec §4.5).
#include <stream/error.hpp>

#include "blocks.hpp"
#include "library.hpp"

namespace stream::blocks {


BlockSpec kv_cache_spec() {
  BlockSpec spec;
  spec.key = "kv_cache";
  spec.label = "KV-Cache Decode Step";
  spec.description =
      "One decode step: slice the valid prefix of the K/V caches, then single-query attention "
      "(scores, softmax, context) over it.";
  spec.params = {{"cache_capacity", ParamType::Int, "128", "cache slots"},
                 {"valid_len", ParamType::Int, "40", "filled cache slots (<= cache_capacity)"},
                 {"d_head", ParamType::Int, "64", "head dimension"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t cap = positive_int(params, "kv_cache", "cache_capacity");
    const std::int64_t t = positive_int(params, "kv_cache", "valid_len");
    const std::int64_t e = positive_int(params, "kv_cache", "d_head");
    if (t > cap)
      throw Error("block 'kv_cache': valid_len (" + std::to_string(t) + ") exceeds cache_capacity (" +
                  std::to_string(cap) + ")");
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr K_cache = g.input("K_cache", {cap, e});
    TensorPtr V_cache = g.input("V_cache", {cap, e});
    TensorPtr q = g.input("q_new", {1, e});
    TensorPtr K = g.add(slice_node(K_cache, 0, 0, t, "K_valid")).outputs[0];
    TensorPtr V = g.add(slice_node(V_cache, 0, 0, t, "V_valid")).outputs[0];
    TensorPtr scores = g.tensor("scores", {1, t});
    g.compute("scores", "MatMul", {q, K}, {scores},
              {dims_map(3, {0, 2}), dims_map(3, {1, 2}), dims_map(3, {0, 1})}, {"i", "j", "e"});
    TensorPtr probs = g.normalization("softmax", "Softmax", scores, "probs", {1});
    TensorPtr context = g.tensor("context", {1, e});
    g.compute("context", "MatMul", {probs, V}, {context},
              {dims_map(3, {0, 2}), dims_map(3, {2, 1}), dims_map(3, {0, 1})}, {"i", "e", "j"});
    g.output("context_out", context);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
