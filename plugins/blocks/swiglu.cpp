// `swiglu`: the SwiGLU MLP (workload-spec §4.6).
#include <numeric>

#include "blocks.hpp"

namespace stream::blocks {

namespace {

/// x[lead..., K] @ W[K, N] -> out[lead..., N], dims (lead..., n, k).
void matmul(GraphBuilder& g, const std::string& name, const TensorPtr& x, const TensorPtr& w, const TensorPtr& out) {
  const int lead = static_cast<int>(x->rank()) - 1;
  const int n = lead, k = lead + 1, num_dims = lead + 2;
  std::vector<int> x_dims(static_cast<std::size_t>(lead)), out_dims;
  std::iota(x_dims.begin(), x_dims.end(), 0);
  out_dims = x_dims;
  x_dims.push_back(k);
  out_dims.push_back(n);
  std::vector<std::string> names;
  if (lead == 1) names = {"m", "n", "k"};
  if (lead == 2) names = {"b", "s", "n", "k"};
  g.compute(name, "MatMul", {x, w}, {out}, {dims_map(num_dims, x_dims), dims_map(num_dims, {k, n}),
                                             dims_map(num_dims, out_dims)},
            std::move(names));
}

}  // namespace

TensorPtr swiglu_part(GraphBuilder& g, const std::string& p, const TensorPtr& x, std::int64_t d_ff) {
  const std::int64_t d_model = x->shape.back();
  std::vector<std::int64_t> hidden_shape = x->shape;
  hidden_shape.back() = d_ff;
  const int rank = static_cast<int>(x->rank());
  const AffineMap id = AffineMap::identity(rank);

  TensorPtr w_gate = g.input(p + "W_gate", {d_model, d_ff});
  TensorPtr w_up = g.input(p + "W_up", {d_model, d_ff});
  TensorPtr w_down = g.input(p + "W_down", {d_ff, d_model});
  TensorPtr gate = g.tensor(p + "gate", hidden_shape);
  matmul(g, p + "gate_proj", x, w_gate, gate);
  TensorPtr up = g.tensor(p + "up", hidden_shape);
  matmul(g, p + "up_proj", x, w_up, up);
  TensorPtr silu = g.tensor(p + "silu", hidden_shape);
  g.compute(p + "silu", "Silu", {gate}, {silu}, {id, id});
  TensorPtr hidden = g.tensor(p + "hidden", hidden_shape);
  g.compute(p + "gate_mul", "Mul", {silu, up}, {hidden}, {id, id, id});
  TensorPtr y = g.tensor(p + "y", x->shape);
  matmul(g, p + "down_proj", hidden, w_down, y);
  return y;
}

BlockSpec swiglu_spec() {
  BlockSpec spec;
  spec.key = "swiglu";
  spec.label = "SwiGLU MLP";
  spec.description = "SwiGLU feed-forward: silu(x W_gate) * (x W_up), then the down projection W_down.";
  spec.params = {{"tokens", ParamType::Int, "16", "tokens", {"seq"}},
                 {"d_model", ParamType::Int, "64", "model dimension"},
                 {"d_ff", ParamType::Int, "128", "hidden (feed-forward) dimension"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t t = positive_int(params, "swiglu", "tokens");
    const std::int64_t d = positive_int(params, "swiglu", "d_model");
    const std::int64_t f = positive_int(params, "swiglu", "d_ff");
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr x = g.input("x", {t, d});
    TensorPtr y = swiglu_part(g, "", x, f);
    g.output("y", y);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
