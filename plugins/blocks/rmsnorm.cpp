// `rmsnorm`: RMS normalisation with a learned scale (workload-spec §4.7).
#include "blocks.hpp"

namespace stream::blocks {

TensorPtr rmsnorm_part(GraphBuilder& g, const std::string& p, const TensorPtr& x) {
  const int rank = static_cast<int>(x->rank());
  const AffineMap id = AffineMap::identity(rank);
  TensorPtr gamma = g.input(p + "gamma", {x->shape.back()});
  TensorPtr normed = g.normalization(p + "rmsnorm", "RMSNormalization", x, p + "normed", {rank - 1});
  TensorPtr y = g.tensor(p + "y", x->shape);
  g.compute(p + "scale", "Mul", {normed, gamma}, {y}, {id, dims_map(rank, {rank - 1}), id});
  return y;
}

BlockSpec rmsnorm_spec() {
  BlockSpec spec;
  spec.key = "rmsnorm";
  spec.label = "RMSNorm";
  spec.description = "RMS normalisation over d_model (one normalization node) followed by the gamma scale.";
  spec.params = {{"tokens", ParamType::Int, "16", "tokens", {"seq"}},
                 {"d_model", ParamType::Int, "64", "model dimension"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t t = positive_int(params, "rmsnorm", "tokens");
    const std::int64_t d = positive_int(params, "rmsnorm", "d_model");
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr x = g.input("x", {t, d});
    TensorPtr y = rmsnorm_part(g, "", x);
    g.output("y", y);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
