// Conv, Gemm, MatMul and Einsum: the contractions. Each node's maps follow the workload spec §2.4,
// with the reference's defects corrected: Conv honours strides per axis, dilations, groups and
// auto_pad; Gemm honours transA/transB; MatMul accepts 1-D operands (matmul_layout.hpp).
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <stream/ir/conv_layout.hpp>
#include <stream/ir/matmul_layout.hpp>
#include "contractions.hpp"
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

// Begin pads per spatial axis from pads / auto_pad (shared with pooling through the same formula).
std::vector<std::int64_t> begin_pads(const OnnxNodeView& v, std::size_t n, const std::vector<std::int64_t>& in,
                                     const std::vector<std::int64_t>& out, const std::vector<std::int64_t>& kernel,
                                     const std::vector<std::int64_t>& strides, const std::vector<std::int64_t>& dil) {
  const auto auto_pad = v.attr_string("auto_pad", "NOTSET");
  std::vector<std::int64_t> begin(n, 0);
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (std::size_t s = 0; s < n; ++s) {
      const auto total = std::max<std::int64_t>(0, (out[s] - 1) * strides[s] + (kernel[s] - 1) * dil[s] + 1 - in[s]);
      begin[s] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    }
  } else if (auto_pad == "VALID") {
    // no padding
  } else if (auto_pad == "NOTSET" || auto_pad.empty()) {
    auto pads = v.attr_ints("pads", std::vector<std::int64_t>(2 * n, 0));
    if (pads.size() != 2 * n)
      v.fail("pads has " + std::to_string(pads.size()) + " values; expected " + std::to_string(2 * n));
    for (std::size_t s = 0; s < n; ++s) begin[s] = pads[s];
  } else {
    v.fail("unknown auto_pad '" + auto_pad + "'");
  }
  return begin;
}

std::vector<std::int64_t> per_axis(const OnnxNodeView& v, const std::string& key, std::size_t n) {
  auto vals = v.attr_ints(key, std::vector<std::int64_t>(n, 1));
  if (vals.size() != n)
    v.fail(key + " has " + std::to_string(vals.size()) + " values; expected one per spatial axis (" + std::to_string(n) + ")");
  for (auto x : vals)
    if (x < 1) v.fail(key + " must be >= 1");
  return vals;
}

}  // namespace

std::vector<Node> conv_nodes(const OnnxNodeView& v, OnnxParseContext& ctx, const TensorPtr& X, const TensorPtr& W,
                             const TensorPtr& Y, const std::string& type) {
  if (X->rank() < 3) v.fail("input must have rank >= 3 (N, C, spatial...), got " + std::to_string(X->rank()), X->name);
  if (W->rank() != X->rank() || Y->rank() != X->rank())
    v.fail("input, weight and output must have the same rank", W->name);
  const std::size_t n = X->rank() - 2;
  const auto G = v.attr_int("group", 1);
  const auto C = X->shape[1], K = W->shape[0];
  if (G < 1 || C % G != 0 || K % G != 0 || W->shape[1] * G != C)
    v.fail("group " + std::to_string(G) + " does not divide channels C=" + std::to_string(C) + ", K=" + std::to_string(K) +
               " with weight channel extent " + std::to_string(W->shape[1]),
           W->name);
  std::vector<std::int64_t> kernel(W->shape.begin() + 2, W->shape.end());
  if (v.has_attribute("kernel_shape") && v.attr_ints("kernel_shape") != kernel)
    v.fail("kernel_shape disagrees with the weight shape", W->name);
  const auto strides = per_axis(v, "strides", n);
  const auto dil = per_axis(v, "dilations", n);
  const std::vector<std::int64_t> in(X->shape.begin() + 2, X->shape.end()), out(Y->shape.begin() + 2, Y->shape.end());
  const auto pad = begin_pads(v, n, in, out, kernel, strides, dil);

  const auto l = conv_layout(C, K, G, strides, dil, pad, /*split_groups=*/true);
  // A grouped convolution reads and writes its tensors' channel axes split into (G, C/G) and
  // (G, K/G) (conv_layout.hpp); the Reshape FusionEdges to and from those views fold into the
  // neighbours where the layout rules allow.
  std::vector<Node> nodes;
  TensorPtr Xg = X, Wg = W, Yg = Y;
  if (G > 1 && C / G > 1) {
    Xg = grouped_view(v, ctx, *X, 1, G, "input");
    nodes.push_back(make_fusion_edge(v.name + "_group_input", "Reshape", X, Xg));
  }
  if (G > 1 && K / G > 1) {
    Wg = grouped_view(v, ctx, *W, 0, G, "weight");
    Yg = grouped_view(v, ctx, *Y, 1, G, "output");
    nodes.push_back(make_fusion_edge(v.name + "_group_weight", "Reshape", W, Wg));
  }
  auto node = make_computation(v.name, type, {Xg, Wg}, {Yg}, {l.input, l.weight, l.output});
  node.dim_names = l.names;
  // Depthwise: k (one output channel per group) indexes nothing.
  if (G > 1 && K / G == 1) node.window_extents = {{l.k, 1}};
  validate(node);
  nodes.push_back(std::move(node));
  if (Yg != Y) nodes.push_back(make_fusion_edge(v.name + "_group_output", "Reshape", Yg, Y));
  return nodes;
}

namespace {

std::vector<Node> parse_conv(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  // Operands in order (argument evaluation order is unspecified): an error names the first one.
  auto X = input_tensor(v, ctx, 0);
  auto W = input_tensor(v, ctx, 1);
  return conv_nodes(v, ctx, X, W, output_tensor(v, ctx, 0), "Conv");
}

std::vector<Node> parse_gemm(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto A = input_tensor(v, ctx, 0);
  auto B = input_tensor(v, ctx, 1);
  auto Y = output_tensor(v, ctx, 0);
  if (A->rank() != 2 || B->rank() != 2) v.fail("A and B must be 2-D", A->rank() != 2 ? A->name : B->name);
  const bool ta = v.attr_int("transA", 0) != 0, tb = v.attr_int("transB", 0) != 0;
  // The loop sizes accept an input larger than its loop (a sub-range read), which would take a
  // B with more rows than A has columns as a partial read: a Gemm has one K.
  const auto ka = A->shape[ta ? 0 : 1], kb = B->shape[tb ? 1 : 0];
  if (ka != kb)
    v.fail("contraction mismatch: A has K = " + std::to_string(ka) + " (transA " + std::to_string(ta ? 1 : 0) +
               ") but B has K = " + std::to_string(kb) + " (transB " + std::to_string(tb ? 1 : 0) + ")",
           B->name);
  // Dims (m, k, n); the bias C is not an operand (it does not change the loop nest).
  AffineMap a = ta ? AffineMap(3, {E::dim(1), E::dim(0)}) : AffineMap(3, {E::dim(0), E::dim(1)});
  AffineMap b = tb ? AffineMap(3, {E::dim(2), E::dim(1)}) : AffineMap(3, {E::dim(1), E::dim(2)});
  auto node = make_computation(v.name, "Gemm", {A, B}, {Y}, {a, b, AffineMap(3, {E::dim(0), E::dim(2)})});
  node.dim_names = {"m", "k", "n"};
  return {std::move(node)};
}

std::vector<Node> parse_matmul(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto A = input_tensor(v, ctx, 0);  // in order: an error names the first operand
  auto B = input_tensor(v, ctx, 1);
  return {matmul_node(v.name, "MatMul", A, B, output_tensor(v, ctx, 0))};
}

std::vector<Node> parse_einsum(const OnnxNodeView& v, OnnxParseContext& ctx) {
  const auto equation = v.attr_string("equation", "");
  if (equation.empty()) v.fail("missing equation");
  std::vector<std::size_t> ranks;
  for (const auto& in : v.inputs) ranks.push_back(in.shape.size());
  const auto expanded = expand_einsum(equation, ranks);
  if (!expanded) v.fail("cannot read equation '" + equation + "' for inputs of ranks given");
  const auto& terms = expanded->inputs;
  const auto& rhs = expanded->output;
  std::vector<TensorPtr> ins;
  for (std::size_t i = 0; i < terms.size(); ++i) ins.push_back(input_tensor(v, ctx, i));
  auto Y = output_tensor(v, ctx, 0);
  // Dims: output letters in order, then contracted letters in order of first appearance.
  std::vector<char> letters(rhs.begin(), rhs.end());
  std::set<char> seen(letters.begin(), letters.end());
  for (auto& t : terms)
    for (char ch : t)
      if (seen.insert(ch).second) letters.push_back(ch);
  std::map<char, int> pos;
  std::map<char, std::int64_t> extent;
  for (std::size_t i = 0; i < letters.size(); ++i) pos[letters[i]] = static_cast<int>(i);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].size() != ins[i]->rank())
      v.fail("equation term '" + terms[i] + "' has " + std::to_string(terms[i].size()) + " letters for a tensor of rank " +
                 std::to_string(ins[i]->rank()), ins[i]->name);
    for (std::size_t a = 0; a < terms[i].size(); ++a) {
      auto& e = extent[terms[i][a]];
      const auto s = ins[i]->shape[a];
      if (e == 0 || e == 1) e = std::max(e, s);
      else if (s != e && s != 1) v.fail("letter '" + std::string(1, terms[i][a]) + "' has inconsistent extents", ins[i]->name);
    }
  }
  const int dims = static_cast<int>(letters.size());
  std::vector<AffineMap> maps;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    std::vector<E> r;
    for (std::size_t a = 0; a < terms[i].size(); ++a) {
      const char ch = terms[i][a];
      r.push_back(ins[i]->shape[a] == 1 && extent[ch] != 1 ? E::constant(0) : E::dim(pos[ch]));
    }
    maps.emplace_back(dims, r);
  }
  std::vector<E> yr;
  for (char ch : rhs) yr.push_back(E::dim(pos[ch]));
  maps.emplace_back(dims, yr);
  const bool contracts = letters.size() > rhs.size();
  // A binary contraction is a (batched) matrix multiplication and is costed as one; this is
  // also what makes the JAX attention parse to the same nodes as the PyTorch one.
  std::string type = "Einsum";
  if (terms.size() == 2) type = contracts ? "MatMul" : "Mul";
  else if (terms.size() == 1 && contracts) type = "ReduceSum";
  auto node = make_computation(v.name, type, ins, {Y}, maps);
  for (char ch : letters) node.dim_names.push_back(std::isdigit(static_cast<unsigned char>(ch)) ? std::string("ell") + ch : std::string(1, ch));
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_linear_algebra_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("Conv", parse_conv);
  out.emplace_back("Gemm", parse_gemm);
  out.emplace_back("MatMul", parse_matmul);
  out.emplace_back("Einsum", parse_einsum);
}

}  // namespace stream::onnx_frontend
