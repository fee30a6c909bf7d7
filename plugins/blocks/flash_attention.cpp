// `flash_attention`: attention with an online softmax over key blocks (workload-spec §4.10).
#include <algorithm>

#include "blocks.hpp"

namespace stream::blocks {

BlockSpec flash_attention_spec() {
  BlockSpec spec;
  spec.key = "flash_attention";
  spec.label = "Flash Attention (online softmax)";
  spec.description =
      "Single-head attention split into ceil(seq_k/block_size) AttentionBlock nodes that carry the "
      "running max m, denominator l and output o from block to block.";
  spec.params = {{"seq_q", ParamType::Int, "64", "query length"},
                 {"seq_k", ParamType::Int, "64", "key length"},
                 {"d_head", ParamType::Int, "32", "head dimension"},
                 {"block_size", ParamType::Int, "16", "keys per block"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t sq = positive_int(params, "flash_attention", "seq_q");
    const std::int64_t sk = positive_int(params, "flash_attention", "seq_k");
    const std::int64_t dh = positive_int(params, "flash_attention", "d_head");
    const std::int64_t blk = positive_int(params, "flash_attention", "block_size");
    const std::string b = "attention";
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr Q = g.input(b + "_Q", {sq, dh});
    TensorPtr o = g.input(b + "_o_init", {sq, dh});
    TensorPtr l = g.input(b + "_l_init", {sq});
    TensorPtr m = g.input(b + "_m_init", {sq});
    const std::int64_t blocks = ceil_div(sk, blk);
    for (std::int64_t i = 0; i < blocks; ++i) {
      const std::string id = std::to_string(i);
      const std::int64_t len = std::min(blk, sk - i * blk);
      TensorPtr K = g.input(b + "_K" + id, {len, dh});
      TensorPtr V = g.input(b + "_V" + id, {len, dh});
      TensorPtr m_next = g.tensor(b + "_m" + id, {sq});
      TensorPtr l_next = g.tensor(b + "_l" + id, {sq});
      TensorPtr o_next = g.tensor(b + "_o" + id, {sq, dh});
      // o is the last output so that c (indexing only K and V) is the one REDUCTION dim.
      g.compute(b + "_block" + id, "AttentionBlock", {Q, K, V, o, l, m}, {m_next, l_next, o_next},
                {dims_map(3, {0, 1}), dims_map(3, {2, 1}), dims_map(3, {2, 1}), dims_map(3, {0, 1}),
                 dims_map(3, {0}), dims_map(3, {0}), dims_map(3, {0}), dims_map(3, {0}), dims_map(3, {0, 1})},
                {"i", "d", "c"});
      m = m_next;
      l = l_next;
      o = o_next;
    }
    g.output(b + "_out", o);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
