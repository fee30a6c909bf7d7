// `linear_attention`: recurrent linear attention (workload-spec §4.3).
#include "blocks.hpp"

namespace stream::blocks {

BlockSpec linear_attention_spec() {
  BlockSpec spec;
  spec.key = "linear_attention";
  spec.label = "Linear Attention (recurrent)";
  spec.description =
      "Linear attention as a recurrence: state_t = state_{t-1} + k_t v_t^T (sequential over t), "
      "then y_t = q_t state_t.";
  spec.params = {{"seq", ParamType::Int, "64", "sequence length"},
                 {"d_k", ParamType::Int, "32", "key dimension"},
                 {"d_v", ParamType::Int, "32", "value dimension"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t s = positive_int(params, "linear_attention", "seq");
    const std::int64_t dk = positive_int(params, "linear_attention", "d_k");
    const std::int64_t dv = positive_int(params, "linear_attention", "d_v");
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr k = g.input("k", {s, dk});
    TensorPtr v = g.input("v", {s, dv});
    TensorPtr q = g.input("q", {s, dk});
    TensorPtr state_prev = g.input("state_prev", {s, dk, dv});
    TensorPtr state = g.tensor("state", {s, dk, dv});
    // state_prev has the state's shape and is read one step back: the t loop carries state.
    const AffineMap prev(3, {AffineExpr::dim(0) - 1, AffineExpr::dim(1), AffineExpr::dim(2)});
    g.compute("state_update", "StateUpdate", {k, v, state_prev}, {state},
              {dims_map(3, {0, 1}), dims_map(3, {0, 2}), prev, dims_map(3, {0, 1, 2})}, {"t", "dk", "dv"});
    TensorPtr y = g.tensor("y", {s, dv});
    g.compute("readout", "MatMul", {q, state}, {y},
              {dims_map(3, {0, 2}), dims_map(3, {0, 2, 1}), dims_map(3, {0, 1})}, {"t", "dv", "dk"});
    g.output("y", y);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
