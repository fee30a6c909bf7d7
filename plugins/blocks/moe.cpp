// `moe`: a mixture-of-experts layer with data-dependent routing (workload-spec §4.8).
#include "blocks.hpp"

namespace stream::blocks {

namespace {

/// Marks operand 0 of `node` as routed by `index_tensor`: its affine map only bounds the access.
void data_dependent_first_input(Node& node, const std::string& index_tensor) {
  node.access_overrides.assign(node.num_operands(), std::nullopt);
  AccessRelation rel;
  rel.kind = AccessKind::DataDependent;
  rel.pieces = {node.operand_mapping.front()};
  rel.index_tensor = index_tensor;
  node.access_overrides.front() = std::move(rel);
}

}  // namespace

BlockSpec moe_spec() {
  BlockSpec spec;
  spec.key = "moe";
  spec.label = "Mixture-of-Experts";
  spec.description =
      "Mixture-of-experts: a router, a data-dependent dispatch of tokens into per-expert capacity "
      "slots, per-expert SiLU MLPs, and a data-dependent combine back to tokens.";
  spec.params = {{"tokens", ParamType::Int, "32", "tokens T", {"seq"}},
                 {"d_model", ParamType::Int, "64", "model dimension D"},
                 {"d_ff", ParamType::Int, "128", "expert hidden dimension F"},
                 {"experts", ParamType::Int, "4", "experts E"},
                 {"capacity", ParamType::Int, "16", "token slots per expert C"},
                 {"load_balance", ParamType::Float, "1.0", "expected routing balance (not used by the graph)"},
                 dtype_param()};
  spec.build = [](const BlockParams& params) {
    const std::int64_t T = positive_int(params, "moe", "tokens");
    const std::int64_t D = positive_int(params, "moe", "d_model");
    const std::int64_t F = positive_int(params, "moe", "d_ff");
    const std::int64_t E = positive_int(params, "moe", "experts");
    const std::int64_t C = positive_int(params, "moe", "capacity");
    (void)params.get_float("load_balance");  // type-checked, but (as in the reference) not in the graph
    GraphBuilder g(params.get_dtype("dtype"));
    TensorPtr x = g.input("x", {T, D});
    TensorPtr w_router = g.input("W_router", {D, E});
    TensorPtr w_in = g.input("W_expert_in", {E, D, F});
    TensorPtr w_out = g.input("W_expert_out", {E, F, D});

    TensorPtr logits = g.tensor("router_logits", {T, E});
    g.compute("router", "MatMul", {x, w_router}, {logits},
              {dims_map(3, {0, 2}), dims_map(3, {2, 1}), dims_map(3, {0, 1})}, {"m", "n", "k"});
    TensorPtr dispatched = g.tensor("dispatched", {E, C, D});
    Node& dispatch = g.compute("dispatch", "MoEDispatch", {x, logits}, {dispatched},
                               {dims_map(4, {3, 2}), dims_map(4, {3, 0}), dims_map(4, {0, 1, 2})},
                               {"e", "c", "d", "t"});
    data_dependent_first_input(dispatch, "router_logits");
    TensorPtr hidden = g.tensor("expert_hidden", {E, C, F});
    g.compute("expert_in", "MatMul", {dispatched, w_in}, {hidden},
              {dims_map(4, {0, 1, 3}), dims_map(4, {0, 3, 2}), dims_map(4, {0, 1, 2})}, {"e", "c", "f", "d"});
    TensorPtr act = g.tensor("expert_act", {E, C, F});
    g.compute("expert_silu", "Silu", {hidden}, {act}, {AffineMap::identity(3), AffineMap::identity(3)},
              {"e", "c", "f"});
    TensorPtr expert_out = g.tensor("expert_out", {E, C, D});
    g.compute("expert_out", "MatMul", {act, w_out}, {expert_out},
              {dims_map(4, {0, 1, 3}), dims_map(4, {0, 3, 2}), dims_map(4, {0, 1, 2})}, {"e", "c", "d", "f"});
    TensorPtr y = g.tensor("y", {T, D});
    Node& combine = g.compute("combine", "MoECombine", {expert_out, logits}, {y},
                              {dims_map(4, {2, 3, 1}), dims_map(4, {0, 2}), dims_map(4, {0, 1})},
                              {"t", "d", "e", "c"});
    data_dependent_first_input(combine, "router_logits");
    g.output("y", y);
    return std::move(g).build();
  };
  return spec;
}

}  // namespace stream::blocks
