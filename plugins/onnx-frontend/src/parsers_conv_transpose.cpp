// ConvTranspose (1-D, 2-D, 3-D; strides, pads, auto_pad, output_padding, output_shape, dilations,
// groups): a stride-1 convolution over the zero-inserted input.
//
// With strides s > 1 the node lowers to two nodes: a ZeroInsert z[b, c, s*i + r] = (r == 0 ?
// x[b, c, i] : 0) over loops (i, r), and a ConvTranspose node that is a dense convolution over z
// with stride 1, dilation d and begin pad P = (k-1)*d - pad_begin, reading the weight
// W[C, K/G, k...] with its channel roles swapped (W[g*C/G + c, k, f]). With strides 1 the
// convolution reads x directly. Every operand axis is then a bare loop or a convolution window
// `o + d*f - P`, the forms the per-core cost model accepts (cost_model.cpp axes_supported), and z's
// `s*i + r` is a window too. Two alternatives were rejected: the scatter form y[s*i + d*f - p]
// += x[i]*w[f] writes outside y wherever pads crop it (a node must write inside its outputs),
// and per-phase convolutions need offsets floor((r + p)/s) that are not affine in the phase r,
// or one node and one re-laid-out weight tensor per phase. The price of the dense form is s^n
// times the true MACs (the zeros are multiplied), which is the work of an accelerator that runs a
// transposed convolution as a convolution over the zero-inserted input.
// Groups split the channel axes into (G, channels/G) as for Conv (conv_layout.hpp).
// The kernel is read flipped (W[.., k-1-f]); the map says W[.., f], the same elements, because
// a reversed axis (coefficient -1) is not a form the cost model accepts and the weight is a
// constant whose layout the compiler chooses.
#include <algorithm>

#include <stream/ir/conv_layout.hpp>
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;
using Ints = std::vector<std::int64_t>;

Ints per_axis(const OnnxNodeView& v, const std::string& key, std::size_t n, std::int64_t fallback, std::int64_t min) {
  auto vals = v.attr_ints(key, Ints(n, fallback));
  if (vals.size() != n)
    v.fail(key + " has " + std::to_string(vals.size()) + " values; expected one per spatial axis (" + std::to_string(n) + ")");
  for (auto x : vals)
    if (x < min) v.fail(key + " must be >= " + std::to_string(min) + ", got " + std::to_string(x));
  return vals;
}

struct TransposeGeometry {
  Ints kernel, strides, dil, out_pad, pad_begin, out;
};

// Begin pads and output extents per the ONNX spec: out = s*(in-1) + output_padding + (k-1)*d + 1
// - pad_begin - pad_end; with output_shape (or SAME_*), the total padding follows from it and is
// split with the larger half at the end for SAME_UPPER and at the begin otherwise.
TransposeGeometry geometry(const OnnxNodeView& v, const Tensor& X, const Tensor& W) {
  const std::size_t n = X.rank() - 2;
  TransposeGeometry g;
  g.kernel.assign(W.shape.begin() + 2, W.shape.end());
  if (v.has_attribute("kernel_shape") && v.attr_ints("kernel_shape") != g.kernel)
    v.fail("kernel_shape disagrees with the weight shape", W.name);
  g.strides = per_axis(v, "strides", n, 1, 1);
  g.dil = per_axis(v, "dilations", n, 1, 1);
  g.out_pad = per_axis(v, "output_padding", n, 0, 0);
  for (std::size_t s = 0; s < n; ++s)
    if (g.out_pad[s] >= std::max(g.strides[s], g.dil[s]))
      v.fail("output_padding " + std::to_string(g.out_pad[s]) + " must be smaller than the stride or the dilation");
  const auto auto_pad = v.attr_string("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER" && !auto_pad.empty())
    v.fail("unknown auto_pad '" + auto_pad + "'");
  Ints target = v.attr_ints("output_shape");
  if (target.size() == n + 2) target.erase(target.begin(), target.begin() + 2);
  if (!target.empty() && target.size() != n)
    v.fail("output_shape has " + std::to_string(target.size()) + " values; expected one per spatial axis");
  if (target.empty() && (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER"))
    for (std::size_t s = 0; s < n; ++s) target.push_back(X.shape[2 + s] * g.strides[s]);
  Ints pads = auto_pad == "VALID" || !target.empty() ? Ints(2 * n, 0) : v.attr_ints("pads", Ints(2 * n, 0));
  if (pads.size() != 2 * n) v.fail("pads has " + std::to_string(pads.size()) + " values; expected " + std::to_string(2 * n));
  for (auto p : pads)
    if (p < 0) v.fail("pads must be >= 0, got " + std::to_string(p));
  for (std::size_t s = 0; s < n; ++s) {
    const auto full = g.strides[s] * (X.shape[2 + s] - 1) + g.out_pad[s] + (g.kernel[s] - 1) * g.dil[s] + 1;
    if (!target.empty()) {
      const auto total = full - target[s];
      if (total < 0) v.fail("output_shape " + std::to_string(target[s]) + " exceeds the full output " + std::to_string(full));
      pads[s] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[s + n] = total - pads[s];
    }
    g.pad_begin.push_back(pads[s]);
    g.out.push_back(full - pads[s] - pads[s + n]);
  }
  return g;
}

// z[b, c, s*i + r] over dims (b, c, i..., r...) for the strided axes.
Node zero_insert(const OnnxNodeView& v, OnnxParseContext& ctx, const TensorPtr& X, const Ints& strides) {
  const std::size_t n = strides.size();
  std::vector<std::int64_t> shape{X->shape[0], X->shape[1]};
  int dims = 2 + static_cast<int>(n);
  std::vector<E> xr{E::dim(0), E::dim(1)}, zr{E::dim(0), E::dim(1)};
  std::vector<std::string> names{"b", "c"}, phases;
  std::vector<std::pair<int, std::int64_t>> windows;
  for (std::size_t s = 0; s < n; ++s) {
    const int i = 2 + static_cast<int>(s);
    shape.push_back(X->shape[2 + s] * strides[s]);
    names.push_back("i" + std::to_string(s));
    xr.push_back(E::dim(i));
    if (strides[s] == 1) {
      zr.push_back(E::dim(i));
      continue;
    }
    zr.push_back(E::dim(i) * strides[s] + E::dim(dims));
    windows.emplace_back(dims, strides[s]);
    phases.push_back("r" + std::to_string(s));
    ++dims;
  }
  names.insert(names.end(), phases.begin(), phases.end());
  auto Z = ctx.new_tensor(v.name + "_zero_inserted", X->dtype, shape);
  auto node = make_computation(v.name + "_zero_insert", "ZeroInsert", {X}, {Z}, {AffineMap(dims, xr), AffineMap(dims, zr)});
  node.dim_names = names;
  node.window_extents = windows;
  validate(node);
  return node;
}

std::vector<Node> parse_conv_transpose(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  auto W = input_tensor(v, ctx, 1);
  if (X->rank() < 3) v.fail("input must have rank >= 3 (N, C, spatial...), got " + std::to_string(X->rank()), X->name);
  if (W->rank() != X->rank()) v.fail("input and weight must have the same rank", W->name);
  const std::size_t n = X->rank() - 2;
  const auto G = v.attr_int("group", 1);
  const auto C = X->shape[1], K = W->shape[1] * G;
  if (G < 1 || C % G != 0 || W->shape[0] != C)
    v.fail("group " + std::to_string(G) + " does not fit input channels C=" + std::to_string(C) + " and weight " +
               std::to_string(W->shape[0]) + "x" + std::to_string(W->shape[1]) + " (expected C x K/group)",
           W->name);
  const auto g = geometry(v, *X, *W);
  // The output is looked up once the attributes are known good (shape inference gives no shape
  // for bad ones).
  auto Y = output_tensor(v, ctx, 0);
  Ints expected{X->shape[0], K};
  expected.insert(expected.end(), g.out.begin(), g.out.end());
  if (Y->shape != expected) {
    std::string e;
    for (auto x : expected) e += (e.empty() ? "" : "x") + std::to_string(x);
    v.fail("output shape disagrees with the ConvTranspose formula (expected " + e + ")", Y->name);
  }
  std::vector<Node> out;
  TensorPtr in = X;
  if (std::any_of(g.strides.begin(), g.strides.end(), [](auto s) { return s > 1; })) {
    out.push_back(zero_insert(v, ctx, X, g.strides));
    in = out.back().outputs[0];
  }
  Ints pads;
  for (std::size_t s = 0; s < n; ++s) pads.push_back((g.kernel[s] - 1) * g.dil[s] - g.pad_begin[s]);
  // Grouped: the channel axes are split by group as for Conv (conv_layout.hpp), the weight
  // [C, K/G, k...] into [G, C/G, K/G, k...]: input channel first, output channel in its group next.
  const auto l = conv_layout(C, K, G, Ints(n, 1), g.dil, pads, /*split_groups=*/true);
  std::vector<E> wr;
  if (G > 1) wr.push_back(E::dim(l.g));
  if (G == 1 || C / G > 1) wr.push_back(E::dim(l.c));
  wr.push_back(E::dim(l.k));
  for (std::size_t s = 0; s < n; ++s) wr.push_back(E::dim(l.f[s]));
  TensorPtr Wg = W, Yg = Y;
  if (G > 1 && C / G > 1) {
    auto grouped_in = grouped_view(v, ctx, *in, 1, G, "input");
    out.push_back(make_fusion_edge(v.name + "_group_input", "Reshape", in, grouped_in));
    in = grouped_in;
    Wg = grouped_view(v, ctx, *W, 0, G, "weight");
    out.push_back(make_fusion_edge(v.name + "_group_weight", "Reshape", W, Wg));
  }
  if (G > 1 && K / G > 1) Yg = grouped_view(v, ctx, *Y, 1, G, "output");
  auto node = make_computation(v.name, "ConvTranspose", {in, Wg}, {Yg}, {l.input, AffineMap(l.dims, wr), l.output});
  node.dim_names = l.names;
  if (G > 1 && C / G == 1) node.window_extents = {{l.c, 1}};  // one input channel per group: c indexes nothing
  validate(node);
  out.push_back(std::move(node));
  if (Yg != Y) out.push_back(make_fusion_edge(v.name + "_group_output", "Reshape", Yg, Y));
  return out;
}

}  // namespace

void add_conv_transpose_parsers(std::vector<ParserEntry>& out) { out.emplace_back("ConvTranspose", parse_conv_transpose); }

}  // namespace stream::onnx_frontend
