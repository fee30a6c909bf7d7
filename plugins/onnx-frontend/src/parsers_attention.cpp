// The transformer operators of opset 23: Attention, RMSNormalization and RotaryEmbedding, and
// FlexAttention (ai.onnx.preview), which lowers as Attention with its score_mod and prob_mod
// subgraphs as element-wise stages around the softmax.
//
// Attention lowers as the attention blocks do (plugins/blocks): a scores MatMul QK^T, the optional
// mask Add and softcap, a Softmax normalization, and a context MatMul with V. Grouped-query
// attention (q heads = groups * reps over kv heads = groups) gets loops g and r, Q and Y indexed at
// head g*reps + r and K and V at head g. 3-D inputs (B, S, heads*size) are read in place at
// heads*size offsets, not reshaped. With past_key/past_value, present_key/present_value are the
// concatenation along the sequence (a Concat node each, masked reads as concat_layout's), and the
// scores run over past + new positions. The scale and is_causal change values, not work: no node.
// The qk_matmul_output (mode 0 scores, 1 after the mask, 2 after the softcap, 3 after the softmax)
// is the stage tensor itself.
#include <numeric>

#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

// The geometry of one Attention node, from its input shapes.
struct AttentionShape {
  bool three_d = false;
  std::int64_t batch = 0, q_heads = 0, kv_heads = 0, reps = 1, q_seq = 0, kv_seq = 0, past = 0, head = 0, v_head = 0;
  std::int64_t total() const { return past + kv_seq; }
};

AttentionShape attention_shape(const OnnxNodeView& v, const Tensor& Q, const Tensor& K, const Tensor& V) {
  AttentionShape s;
  if (Q.rank() != K.rank() || Q.rank() != V.rank() || (Q.rank() != 3 && Q.rank() != 4))
    v.fail("Q, K and V must all be 3-D (B, S, heads*size) or all 4-D (B, heads, S, size)", Q.name);
  s.three_d = Q.rank() == 3;
  s.batch = Q.shape[0];
  s.q_heads = s.three_d ? v.attr_int("q_num_heads", 0) : Q.shape[1];
  s.kv_heads = s.three_d ? v.attr_int("kv_num_heads", 0) : K.shape[1];
  if (s.q_heads < 1 || s.kv_heads < 1) v.fail("3-D inputs need q_num_heads and kv_num_heads >= 1");
  if (s.q_heads % s.kv_heads != 0)
    v.fail(std::to_string(s.q_heads) + " query heads do not group over " + std::to_string(s.kv_heads) + " kv heads");
  s.reps = s.q_heads / s.kv_heads;
  s.q_seq = s.three_d ? Q.shape[1] : Q.shape[2];
  s.kv_seq = s.three_d ? K.shape[1] : K.shape[2];
  s.head = s.three_d ? K.shape[2] / s.kv_heads : K.shape[3];
  s.v_head = s.three_d ? V.shape[2] / s.kv_heads : V.shape[3];
  const auto q_head = s.three_d ? Q.shape[2] / s.q_heads : Q.shape[3];
  if (s.three_d && (Q.shape[2] % s.q_heads != 0 || K.shape[2] % s.kv_heads != 0 || V.shape[2] % s.kv_heads != 0))
    v.fail("the hidden sizes of Q, K and V must divide by their numbers of heads", Q.name);
  if (q_head != s.head) v.fail("Q and K have different head sizes", K.name);
  return s;
}

// A head-major tensor (B, heads, S, size) or a 3-D one (B, S, heads*size) read at (b, head, seq, e).
E head_axis(const AttentionShape& s, const E& g, const E& r) { return g * s.reps + r; }
std::vector<E> bhse(bool three_d, const E& b, const E& head, const E& seq, const E& e, std::int64_t size) {
  if (three_d) return {b, seq, head * size + e};
  return {b, head, seq, e};
}

// present = concat(past, new) along the sequence, over (b, h, t, e): past read at t, the new keys
// or values at t - past, each masked to its part (a copy of the new ones when there is no past).
Node present_node(const std::string& name, const TensorPtr& past, const TensorPtr& fresh,
                  const TensorPtr& present, const AttentionShape& s, std::int64_t size) {
  std::vector<TensorPtr> ins;
  std::vector<AffineMap> maps;
  if (past) {
    ins.push_back(past);
    maps.push_back(AffineMap::identity(4));
  }
  ins.push_back(fresh);
  maps.emplace_back(4, bhse(s.three_d, E::dim(0), E::dim(1), E::dim(2) - s.past, E::dim(3), size));
  maps.push_back(AffineMap::identity(4));
  auto node = make_computation(name, "Concat", ins, {present}, maps);
  if (past) node.access_overrides = {masked(maps[0]), masked(maps[1]), std::nullopt};
  else if (s.three_d) node.window_extents = {{1, s.kv_heads}, {3, size}};
  node.dim_names = {"b", "h", "t", "e"};
  validate(node);
  return node;
}

std::vector<Node> parse_attention(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  auto Q = input_tensor(v, ctx, 0), K = input_tensor(v, ctx, 1), V = input_tensor(v, ctx, 2);
  auto Y = output_tensor(v, ctx, 0);
  const auto s = attention_shape(v, *Q, *K, *V);
  if (has_input(v, 4) != has_input(v, 5)) v.fail("past_key and past_value must be given together");
  auto past_k = has_input(v, 4) ? input_tensor(v, ctx, 4) : nullptr;
  auto past_v = has_input(v, 5) ? input_tensor(v, ctx, 5) : nullptr;
  AttentionShape sp = s;
  if (past_k) {
    if (past_k->rank() != 4 || past_k->shape[1] != s.kv_heads || past_k->shape[3] != s.head)
      v.fail("past_key must be (B, kv_heads, past, head_size)", past_k->name);
    sp.past = past_k->shape[2];
  }
  auto used = [&](std::size_t i) { return i < v.outputs.size() && v.outputs[i].present(); };
  std::vector<Node> out;
  // K and V over every position (past + new): the present outputs, or the inputs themselves.
  auto all_positions = [&](std::size_t out_slot, const TensorPtr& past, const TensorPtr& fresh, std::int64_t size,
                           const std::string& role) -> std::pair<TensorPtr, bool> {
    if (!past && !used(out_slot)) return {fresh, s.three_d};
    auto present = used(out_slot) ? output_tensor(v, ctx, out_slot)
                                  : ctx.new_tensor(v.name + "_" + role, fresh->dtype, {s.batch, s.kv_heads, sp.total(), size});
    check_output_shape(v, *present, {s.batch, s.kv_heads, sp.total(), size}, "past + new positions");
    out.push_back(present_node(v.name + "_" + role, past, fresh, present, sp, size));
    return {present, false};
  };
  const auto [k_all, k3] = all_positions(1, past_k, K, s.head, "present_key");
  const auto [v_all, v3] = all_positions(2, past_v, V, s.v_head, "present_value");
  // The score stages; the qk_matmul_output is the last stage at or before its mode.
  const bool has_mask = has_input(v, 3);
  const double softcap = v.attr_float("softcap", 0.0);
  const auto mode = v.attr_int("qk_matmul_output_mode", 0);
  int exported = 0;
  if (has_mask && mode >= 1) exported = 1;
  if (softcap > 0 && mode >= 2) exported = 2;
  if (mode >= 3) exported = 3;
  const std::vector<std::int64_t> score_shape{s.batch, s.q_heads, s.q_seq, sp.total()};
  auto stage_tensor = [&](int stage, const std::string& role) {
    if (used(3) && stage == exported) {
      auto t = output_tensor(v, ctx, 3);
      check_output_shape(v, *t, score_shape, "(B, q_heads, q_seq, total_seq)");
      return t;
    }
    return ctx.new_tensor(v.name + "_" + role, Q->dtype, score_shape);
  };
  // Scores over (b, g, r, i, j, e): Q (b, g*reps+r, i, e) . K (b, g, j, e).
  const E b = E::dim(0), g = E::dim(1), r = E::dim(2), i = E::dim(3), j = E::dim(4), e = E::dim(5);
  auto scores = stage_tensor(0, "scores");
  auto qk = make_computation(v.name + "_scores", "MatMul", {Q, k_all}, {scores},
                             {AffineMap(6, bhse(s.three_d, b, head_axis(s, g, r), i, e, s.head)),
                              AffineMap(6, bhse(k3, b, g, j, e, s.head)), AffineMap(6, {b, head_axis(s, g, r), i, j})});
  qk.window_extents = {{1, s.kv_heads}, {2, s.reps}, {5, s.head}};
  qk.dim_names = {"b", "g", "r", "i", "j", "e"};
  validate(qk);
  out.push_back(std::move(qk));
  auto current = scores;
  if (has_mask) {
    auto mask = input_tensor(v, ctx, 3);
    auto next = stage_tensor(1, "masked");
    // A mask shorter than the positions (opset 24) covers the first ones; the rest are masked out.
    auto covered = score_shape;
    const bool short_mask = mask->rank() >= 1 && mask->shape.back() > 1 && mask->shape.back() < sp.total();
    if (short_mask) covered[3] = mask->shape.back();
    auto add = make_computation(v.name + "_mask", "Add", {current, mask}, {next},
                                {AffineMap::identity(4), broadcast_map(v, *mask, covered, 4), AffineMap::identity(4)});
    if (short_mask) add.access_overrides = {std::nullopt, masked(add.operand_mapping[1]), std::nullopt};
    out.push_back(std::move(add));
    current = next;
  }
  if (softcap > 0) {
    auto next = stage_tensor(2, "softcapped");
    out.push_back(make_computation(v.name + "_softcap", "Softcap", {current}, {next},
                                   {AffineMap::identity(4), AffineMap::identity(4)}));
    current = next;
  }
  // FlexAttention's score_mod and prob_mod subgraphs: an element-wise stage on the scores before
  // the softmax, and on the probabilities after it.
  if (v.has_attribute("score_mod")) {
    auto next = stage_tensor(2, "score_mod");
    out.push_back(make_computation(v.name + "_score_mod", "ScoreMod", {current}, {next},
                                   {AffineMap::identity(4), AffineMap::identity(4)}));
    current = next;
  }
  const bool prob_mod = v.has_attribute("prob_mod");
  auto probs = prob_mod ? ctx.new_tensor(v.name + "_softmax", Q->dtype, score_shape) : stage_tensor(3, "probs");
  out.push_back(make_normalization(v.name + "_softmax", "Softmax", current, probs, {3}));
  if (prob_mod) {
    auto modified = stage_tensor(3, "probs");
    out.push_back(make_computation(v.name + "_prob_mod", "ProbMod", {probs}, {modified},
                                   {AffineMap::identity(4), AffineMap::identity(4)}));
    probs = modified;
  }
  // Context over (b, g, r, i, e, j): probs (b, g*reps+r, i, j) . V (b, g, j, e) -> Y in Q's layout.
  check_output_shape(v, *Y,
                     s.three_d ? std::vector<std::int64_t>{s.batch, s.q_seq, s.q_heads * s.v_head}
                               : std::vector<std::int64_t>{s.batch, s.q_heads, s.q_seq, s.v_head},
                     "Q's layout with V's head size");
  const E ce = E::dim(4), cj = E::dim(5);
  auto pv = make_computation(v.name, "MatMul", {probs, v_all}, {Y},
                             {AffineMap(6, {b, head_axis(s, g, r), i, cj}), AffineMap(6, bhse(v3, b, g, cj, ce, s.v_head)),
                              AffineMap(6, bhse(s.three_d, b, head_axis(s, g, r), i, ce, s.v_head))});
  pv.window_extents = {{1, s.kv_heads}, {2, s.reps}, {4, s.v_head}};
  pv.dim_names = {"b", "g", "r", "i", "e", "j"};
  validate(pv);
  out.push_back(std::move(pv));
  return out;
}

// RMSNormalization: X normalised over the axes from `axis` (default -1) to the last, as
// LayerNormalization; the scale is a parameter of the normalization, not an operand.
std::vector<Node> parse_rms_norm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (Y->shape != X->shape) v.fail("output shape differs from the input's", Y->name);
  const int axis = normalize_axis(v, v.attr_int("axis", -1), X->rank());
  std::vector<int> axes(X->rank() - static_cast<std::size_t>(axis));
  std::iota(axes.begin(), axes.end(), axis);
  return {make_normalization(v.name, "RMSNormalization", X, Y, axes)};
}

// RotaryEmbedding: an element-wise node over the input's axes, each element rotated with its
// partner in the same head (read through the identity map, the partner is in the same row) by the
// cos/sin of its position at column d mod (rotary_dim / 2) (d / 2 for interleaved pairs). With position_ids the cache row is
// chosen by data (a data-dependent read of one row, routed by position_ids, as ScatterND's); without,
// the caches are (B, S, rotary_dim/2) and read in place. Past rotary_dim the caches are not read
// in truth; the bound counts one column for them, a few cache elements per row.
std::vector<Node> parse_rotary(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 3);
  auto X = input_tensor(v, ctx, 0);
  auto cos = input_tensor(v, ctx, 1), sin = input_tensor(v, ctx, 2);
  auto Y = output_tensor(v, ctx, 0);
  if (Y->shape != X->shape) v.fail("output shape differs from the input's", Y->name);
  if (X->rank() != 3 && X->rank() != 4) v.fail("input must be (B, heads, S, size) or (B, S, heads*size)", X->name);
  const bool three_d = X->rank() == 3;
  const auto heads = three_d ? v.attr_int("num_heads", 0) : X->shape[1];
  if (heads < 1 || (three_d && X->shape[2] % heads != 0)) v.fail("3-D input needs num_heads dividing its last axis", X->name);
  const auto head = three_d ? X->shape[2] / heads : X->shape[3];
  const auto rotary = v.attr_int("rotary_embedding_dim", 0) > 0 ? v.attr_int("rotary_embedding_dim", 0) : head;
  if (rotary > head || rotary % 2 != 0) v.fail("rotary_embedding_dim must be even and at most the head size");
  const auto half = rotary / 2;
  if (cos->shape != sin->shape || cos->shape.empty() || cos->shape.back() != half)
    v.fail("cos_cache and sin_cache must be alike with rotary_dim/2 = " + std::to_string(half) + " columns", cos->name);
  // Dims (b, s, h, d); the input and output at (b, h, s, d) or (b, s, h*size + d).
  const E b = E::dim(0), s = E::dim(1), h = E::dim(2), d = E::dim(3);
  const AffineMap xmap(4, three_d ? std::vector<E>{b, s, h * head + d} : std::vector<E>{b, h, s, d});
  // Column of the cache: d mod half (halves rotated together), or d / 2 for interleaved pairs.
  const E column = v.attr_int("interleaved", 0) != 0 ? d.floordiv(2).mod(half) : d.mod(half);
  const bool by_position = has_input(v, 3);
  const AffineMap cache(4, by_position ? std::vector<E>{E::constant(0), column} : std::vector<E>{b, s, column});
  if (!by_position && cos->rank() != 3) v.fail("without position_ids the caches must be (B, S, rotary_dim/2)", cos->name);
  if (by_position && cos->rank() != 2) v.fail("with position_ids the caches must be (max_position, rotary_dim/2)", cos->name);
  auto node = make_computation(v.name, "RotaryEmbedding", {X, cos, sin}, {Y}, {xmap, cache, cache, xmap});
  node.window_extents = {{2, heads}, {3, head}};
  node.dim_names = {"b", "s", "h", "d"};
  if (by_position) {
    const auto routed = routed_by(cache, v.inputs[3].name);
    node.access_overrides = {std::nullopt, routed, routed, std::nullopt};
  }
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_attention_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("Attention", parse_attention);
  out.emplace_back("FlexAttention", parse_attention);  // ai.onnx.preview: 4-D Q, K, V, score_mod/prob_mod stages
  out.emplace_back("RMSNormalization", parse_rms_norm);
  out.emplace_back("RotaryEmbedding", parse_rotary);
}

}  // namespace stream::onnx_frontend
