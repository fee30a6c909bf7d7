// `mamba`: a Mamba-style selective-scan state update (workload-spec §4.4).
#include "blocks.hpp"

namespace stream::blocks {

BlockSpec mamba_spec() {
  BlockSpec spec;
  spec.key = "mamba";
  spec.label = "Mamba (SSM state update)";
  spec.description =
      "Selective state-space update: discretise A and B with delta, scan h_t = Abar_t * h_{t-1} + "
      "dB_t x_t (sequential over t), read out with C and add the D skip connection.";
  spec.params = {{"seq", ParamType::Int, "256", "sequence length L"},
                 {"d_inner", ParamType::Int, "512", "inner (channel) dimension D"},
                 {"d_state", ParamType::Int, "16", "state dimension N"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t L = positive_int(params, "mamba", "seq");
    const std::int64_t D = positive_int(params, "mamba", "d_inner");
    const std::int64_t N = positive_int(params, "mamba", "d_state");
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr delta = g.input("delta", {L, D});
    TensorPtr A = g.input("A", {D, N});
    TensorPtr B = g.input("B", {L, N});
    TensorPtr C = g.input("C", {L, N});
    TensorPtr x = g.input("x", {L, D});
    TensorPtr D_skip = g.input("D_skip", {D});
    TensorPtr h_prev = g.input("h_prev", {L, D, N});

    const std::vector<std::string> tdn = {"t", "d", "n"};
    const AffineMap id3 = AffineMap::identity(3);
    const AffineMap td = dims_map(3, {0, 1});
    TensorPtr dA = g.tensor("dA", {L, D, N});
    g.compute("dA", "Mul", {delta, A}, {dA}, {td, dims_map(3, {1, 2}), id3}, tdn);
    TensorPtr Abar = g.tensor("Abar", {L, D, N});
    g.compute("Abar", "Exp", {dA}, {Abar}, {id3, id3}, tdn);
    TensorPtr dB = g.tensor("dB", {L, D, N});
    g.compute("dB", "Mul", {delta, B}, {dB}, {td, dims_map(3, {0, 2}), id3}, tdn);
    TensorPtr dBx = g.tensor("dBx", {L, D, N});
    g.compute("dBx", "Mul", {dB, x}, {dBx}, {id3, td, id3}, tdn);
    TensorPtr h = g.tensor("h", {L, D, N});
    const AffineMap prev(3, {AffineExpr::dim(0) - 1, AffineExpr::dim(1), AffineExpr::dim(2)});
    g.compute("scan", "SelectiveScan", {Abar, h_prev, dBx}, {h}, {id3, prev, id3, id3}, tdn);
    TensorPtr y_ssm = g.tensor("y_ssm", {L, D});
    g.compute("readout", "MatMul", {C, h}, {y_ssm}, {dims_map(3, {0, 2}), id3, td}, tdn);

    const std::vector<std::string> t_d = {"t", "d"};
    const AffineMap id2 = AffineMap::identity(2);
    TensorPtr Dx = g.tensor("Dx", {L, D});
    g.compute("skip", "Mul", {D_skip, x}, {Dx}, {dims_map(2, {1}), id2, id2}, t_d);
    TensorPtr y = g.tensor("y", {L, D});
    g.compute("out", "Add", {y_ssm, Dx}, {y}, {id2, id2, id2}, t_d);
    g.output("y", y);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
