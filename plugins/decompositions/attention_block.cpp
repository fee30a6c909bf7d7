// Decomposition of a flash-attention AttentionBlock (workload-spec §5.3).
//
// One block is one online-softmax step over a key block of `blk` keys: with inputs
// (q[sq,dh], k[blk,dh], v[blk,dh], o_prev[sq,dh], l_prev[sq], m_prev[sq]) and outputs
// (m_out[sq], l_out[sq], o_out[sq,dh]):
//   scores = q k^T; blockmax = rowmax(scores); m_out = max(m_prev, blockmax);
//   probs = exp(scores - m_out); denom = rowsum(probs); context = probs v;
//   rescale = exp(m_prev - m_out); l_out = rescale*l_prev + denom; o_out = rescale*o_prev + context.
#include "decompositions.hpp"
#include "subgraph.hpp"

namespace stream::decompositions {

Workload decompose_attention_block(const Node& node) {
  Subgraph sg(node);
  if (node.inputs.size() != 6 || node.outputs.size() != 3)
    sg.fail("expected inputs (q, k, v, o_prev, l_prev, m_prev) and outputs (m, l, o), got " +
            std::to_string(node.inputs.size()) + " inputs and " + std::to_string(node.outputs.size()) + " outputs");
  const TensorPtr &q = node.inputs[0], &k = node.inputs[1], &v = node.inputs[2], &o_prev = node.inputs[3],
                  &l_prev = node.inputs[4], &m_prev = node.inputs[5];
  const TensorPtr &m_out = node.outputs[0], &l_out = node.outputs[1], &o_out = node.outputs[2];
  auto expect = [&](const TensorPtr& t, const std::vector<std::int64_t>& shape) {
    if (t->shape != shape) {
      std::string s;
      for (auto e : shape) s += (s.empty() ? "" : ", ") + std::to_string(e);
      sg.fail("tensor '" + t->name + "' must have shape (" + s + ")");
    }
  };
  if (q->rank() != 2 || k->rank() != 2) sg.fail("q and k must be rank-2 ([seq, d_head] and [block, d_head])");
  const std::int64_t sq = q->shape[0], dh = q->shape[1], blk = k->shape[0];
  expect(k, {blk, dh});
  expect(v, {blk, dh});
  expect(o_prev, {sq, dh});
  expect(l_prev, {sq});
  expect(m_prev, {sq});
  expect(m_out, {sq});
  expect(l_out, {sq});
  expect(o_out, {sq, dh});

  const DType dt = q->dtype;
  auto m2 = [](std::initializer_list<int> d) { return AffineMap::of_dims(2, std::span<const int>(d.begin(), d.size())); };
  auto m3 = [](std::initializer_list<int> d) { return AffineMap::of_dims(3, std::span<const int>(d.begin(), d.size())); };
  const AffineMap i1 = AffineMap::identity(1);

  TensorPtr scores = sg.tensor("scores", dt, {sq, blk});
  sg.op("scores", "MatMul", {q, k}, {scores}, {m3({0, 2}), m3({1, 2}), m3({0, 1})});  // dims (i, c, d)
  TensorPtr blockmax = sg.tensor("blockmax", dt, {sq});
  sg.op("max", "ReduceMax", {scores}, {blockmax}, {m2({0, 1}), m2({0})});  // dims (i, c)
  sg.op("m", "Maximum", {m_prev, blockmax}, {m_out}, {i1, i1, i1});       // dims (i)
  TensorPtr probs = sg.tensor("probs", dt, {sq, blk});
  sg.op("probs", "Exp", {scores, m_out}, {probs}, {m2({0, 1}), m2({0}), m2({0, 1})});
  TensorPtr denom = sg.tensor("denom", dt, {sq});
  sg.op("sum", "ReduceSum", {probs}, {denom}, {m2({0, 1}), m2({0})});
  TensorPtr context = sg.tensor("context", dt, {sq, dh});
  sg.op("context", "MatMul", {probs, v}, {context}, {m3({0, 2}), m3({2, 1}), m3({0, 1})});  // dims (i, d, c)
  TensorPtr rescale = sg.tensor("rescale", dt, {sq});
  sg.op("rescale", "Exp", {m_prev, m_out}, {rescale}, {i1, i1, i1});
  sg.op("l", "ScaleAdd", {l_prev, rescale, denom}, {l_out}, {i1, i1, i1, i1});
  sg.op("o", "ScaleAdd", {o_prev, rescale, context}, {o_out}, {m2({0, 1}), m2({0}), m2({0, 1}), m2({0, 1})});
  return std::move(sg).build({node.name + "_m_out", node.name + "_l_out", node.name + "_o_out"});
}

std::vector<std::pair<std::string, Decomposer>> all_decompositions() {
  return {{"Softmax", decompose_softmax},
          {"LpNormalization", decompose_lp_normalization},
          {"AttentionBlock", decompose_attention_block},
          {"LayerNormalization", decompose_layer_normalization},
          {"RMSNormalization", decompose_rms_normalization}};
}

}  // namespace stream::decompositions
