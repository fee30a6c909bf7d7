// `chunked_ssm`: a scan recurrence cut into chunks (workload-spec §4.9, the chunked_scan rewrite).
#include <algorithm>

#include "blocks.hpp"

namespace stream::blocks {

BlockSpec chunked_ssm_spec() {
  BlockSpec spec;
  spec.key = "chunked_ssm";
  spec.label = "Chunked SSM";
  spec.description =
      "A length-seq scan over `hidden` channels split into ceil(seq/chunk_size) ScanChunk nodes, each "
      "reducing its chunk of inputs into the state passed to the next chunk.";
  spec.params = {{"seq", ParamType::Int, "64", "sequence length L"},
                 {"hidden", ParamType::Int, "32", "hidden channels H"},
                 {"chunk_size", ParamType::Int, "16", "steps per chunk C"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t L = positive_int(params, "chunked_ssm", "seq");
    const std::int64_t H = positive_int(params, "chunked_ssm", "hidden");
    const std::int64_t C = positive_int(params, "chunked_ssm", "chunk_size");
    const std::string base = "ssm_scan";
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr state = g.input(base + "_h_init", {H});
    const std::int64_t chunks = ceil_div(L, C);
    for (std::int64_t i = 0; i < chunks; ++i) {
      const std::string id = std::to_string(i);
      const std::int64_t len = std::min(C, L - i * C);
      TensorPtr x = g.input(base + "_x" + id, {len, H});
      TensorPtr next = g.tensor(base + "_h" + id, {H});
      g.compute(base + "_chunk" + id, "ScanChunk", {x, state}, {next},
                {AffineMap::identity(2), dims_map(2, {1}), dims_map(2, {1})}, {"c", "d"});
      state = next;
    }
    g.output(base + "_out", state);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
