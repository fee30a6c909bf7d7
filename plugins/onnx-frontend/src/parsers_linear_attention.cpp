// LinearAttention: recurrent linear attention over 3-D (B, S, heads*size) query, key and value, as
// the `linear_attention` block lowers it: `<n>_state` (StateUpdate, loops b, h, t, i, j) writes
// the state of every step, S_t[i, j] from S_{t-1} (a state tensor `<n>_state_prev` read at t - 1,
// so t is sequential; the past_state, when given, read at every step as the initial state), key
// i, value j and the decay/beta gates of the update rule (linear, gated, delta, gated_delta: one
// point per state element per step, whichever rule); `<n>` (MatMul, loops b, g, r, t, j, i) reads
// each step's state with the query: output = q_t S_t, query head g*reps + r over kv head g; and
// `<n>_present` (Slice) copies the last step's state into present_state (B, kv_heads, Dk, Dv).
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

// A gate (decay or beta) read per step at the head's key column (B, S, kv*Dk), the head (B, S, kv)
// or shared (B, S, 1).
AffineMap gate_map(const OnnxNodeView& v, const Tensor& gate, std::int64_t heads, std::int64_t dk, const E& b,
                   const E& h, const E& t, const E& i) {
  if (gate.rank() != 3) v.fail("a gate must be (B, S, kv_heads*Dk), (B, S, kv_heads) or (B, S, 1)", gate.name);
  const auto last = gate.shape[2];
  if (last == heads * dk) return AffineMap(5, {b, t, h * dk + i});
  if (last == heads) return AffineMap(5, {b, t, h});
  if (last == 1) return AffineMap(5, {b, t, E::constant(0)});
  v.fail("a gate must be (B, S, kv_heads*Dk), (B, S, kv_heads) or (B, S, 1)", gate.name);
}

std::vector<Node> parse_linear_attention(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  auto Q = input_tensor(v, ctx, 0), K = input_tensor(v, ctx, 1), V = input_tensor(v, ctx, 2);
  auto Y = output_tensor(v, ctx, 0);
  const auto hq = v.attr_int("q_num_heads", 0), hkv = v.attr_int("kv_num_heads", 0);
  if (Q->rank() != 3 || K->rank() != 3 || V->rank() != 3) v.fail("query, key and value must be (B, S, heads*size)", Q->name);
  if (hq < 1 || hkv < 1 || hq % hkv != 0 || Q->shape[2] % hq != 0 || K->shape[2] % hkv != 0 || V->shape[2] % hkv != 0)
    v.fail("q_num_heads and kv_num_heads must group and divide the hidden sizes");
  const auto B = Q->shape[0], S = Q->shape[1], dk = K->shape[2] / hkv, dv = V->shape[2] / hkv, reps = hq / hkv;
  if (Q->shape[2] / hq != dk) v.fail("query and key have different head sizes", K->name);
  check_output_shape(v, *Y, {B, S, hq * dv}, "(B, S, q_heads * value head size)");
  const std::vector<std::int64_t> steps_shape{B, hkv, S, dk, dv};
  auto states = ctx.new_tensor(v.name + "_states", Q->dtype, steps_shape);
  auto prev = ctx.new_state_tensor(v.name + "_state_prev", Q->dtype, steps_shape);
  // The update over (b, h, t, i, j).
  const E b = E::dim(0), h = E::dim(1), t = E::dim(2), i = E::dim(3), j = E::dim(4);
  std::vector<TensorPtr> ins{K, V, prev};
  std::vector<AffineMap> maps{AffineMap(5, {b, t, h * dk + i}), AffineMap(5, {b, t, h * dv + j}),
                              AffineMap(5, {b, h, t - 1, i, j})};
  if (has_input(v, 3)) {
    auto past = input_tensor(v, ctx, 3);
    if (past->shape != std::vector<std::int64_t>{B, hkv, dk, dv}) v.fail("past_state must be (B, kv_heads, Dk, Dv)", past->name);
    ins.push_back(past);
    maps.emplace_back(5, std::vector<E>{b, h, i, j});
  }
  for (std::size_t g = 4; g <= 5; ++g)
    if (has_input(v, g)) {
      auto gate = input_tensor(v, ctx, g);
      ins.push_back(gate);
      maps.push_back(gate_map(v, *gate, hkv, dk, b, h, t, i));
    }
  maps.push_back(AffineMap::identity(5));
  auto update = make_computation(v.name + "_state", "StateUpdate", ins, {states}, maps);
  update.state_inputs = {2};
  update.dim_names = {"b", "h", "t", "i", "j"};
  validate(update);
  std::vector<Node> out;
  out.push_back(std::move(update));
  // The readout over (b, g, r, t, j, i).
  const E g = E::dim(1), r = E::dim(2), rt = E::dim(3), rj = E::dim(4), ri = E::dim(5);
  const E head = g * reps + r;
  auto readout = make_computation(v.name, "MatMul", {Q, states}, {Y},
                                  {AffineMap(6, {b, rt, head * dk + ri}), AffineMap(6, {b, g, rt, ri, rj}),
                                   AffineMap(6, {b, rt, head * dv + rj})});
  readout.window_extents = {{2, reps}};
  readout.dim_names = {"b", "g", "r", "t", "j", "i"};
  validate(readout);
  out.push_back(std::move(readout));
  if (v.outputs.size() > 1 && v.outputs[1].present()) {
    auto present = output_tensor(v, ctx, 1);
    check_output_shape(v, *present, {B, hkv, dk, dv}, "(B, kv_heads, Dk, Dv)");
    const E pb = E::dim(0), ph = E::dim(1), pi = E::dim(2), pj = E::dim(3);
    out.push_back(make_computation(v.name + "_present", "Slice", {states}, {present},
                                   {AffineMap(4, {pb, ph, E::constant(S - 1), pi, pj}), AffineMap::identity(4)}));
  }
  return out;
}

}  // namespace

void add_linear_attention_parsers(std::vector<ParserEntry>& out) { out.emplace_back("LinearAttention", parse_linear_attention); }

}  // namespace stream::onnx_frontend
