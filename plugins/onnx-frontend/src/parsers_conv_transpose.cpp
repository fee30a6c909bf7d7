// ConvTranspose (1-D, 2-D, 3-D; strides, pads, auto_pad, output_padding, output_shape, dilations,
// groups) as the scatter it is: every input element times every tap, no more.
//
// The node's loops are a convolution's (conv_layout.hpp: b, the spatial loops, the kernel loops,
// c, k[, g]) with the spatial index expressions of input and output exchanged: it reads x[b, c, i]
// and w[c, k, f] with bare loops and writes y[b, k, s*i + d*f], a window (two loops, constant 0),
// as a convolution reads x[s*o + d*f - p]. Its iteration space has N * C * in * k * K/G points,
// the MACs of the operator; f is a window loop of the output (taps of neighbouring inputs add
// into the same element) rather than a reduction.
//
// Why not a convolution over the zero-inserted input (the previous lowering): it multiplies the
// inserted zeros and the border, s^n times the real MACs and more (1.7x to 8.9x on ONNX's
// conformance models). Why not stride-by-stride sub-pixel convolutions (one node per output
// phase r, reading x[j + d'*t + c_r] with the taps f = r + p (mod s)): the IR has one producer per
// tensor, so the phases would need tensors of their own and an interleaving node; and an output-
// stationary phase still reads the padding at the borders (a stride-1 ConvTranspose is then the
// same dense convolution), so its MACs are exact only when the border reads happen to equal the
// scatter's cropped ones. The scatter needs neither: its loops are rectangular in (i, f).
//
// The scatter's positions run over [0, s*(in-1) + d*(k-1) + 1) while the output is the window
// [p, p + out) of them (conv_transpose_geometry.hpp). When p = 0 and the scatter fits (the UNet
// and k = s decoders, output_padding alone) the node writes the output directly and the elements
// past the scatter hold the bias. Otherwise it writes a tensor of the scatter's extent and a
// `Pad` node with the negative pads of the crop (ONNX Pad semantics: y[o] = z[o + p], masked like
// Pad, so reads outside z are the bias) produces the output: a node must write inside its outputs.
// Groups split the channel axes into (G, channels/G) as for Conv (conv_layout.hpp).
// The weight is read at w[c, k, f] although the scatter with flipped taps is the same sum: the
// weight is a constant whose layout the compiler chooses.
#include <algorithm>

#include <stream/ir/conv_layout.hpp>
#include "conv_transpose_geometry.hpp"
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;
using Ints = std::vector<std::int64_t>;

// `keep`'s results with the last n (spatial) ones taken from `spatial`.
AffineMap with_spatial_of(const AffineMap& keep, const AffineMap& spatial, std::size_t n) {
  auto results = keep.results();
  const auto& from = spatial.results();
  std::copy(from.end() - static_cast<std::ptrdiff_t>(n), from.end(), results.end() - static_cast<std::ptrdiff_t>(n));
  return AffineMap(keep.num_dims(), std::move(results));
}

// y[.., o] = z[.., o + p] over y's axes; the last n axes are spatial.
Node crop(const OnnxNodeView& v, const TensorPtr& Z, const TensorPtr& Y, const Ints& pad_begin) {
  const int r = static_cast<int>(Y->rank());
  const auto first = static_cast<std::size_t>(r) - pad_begin.size();
  std::vector<E> zr;
  for (int a = 0; a < r; ++a) {
    const auto axis = static_cast<std::size_t>(a);
    zr.push_back(axis < first ? E::dim(a) : E::dim(a) + pad_begin[axis - first]);
  }
  auto node = make_computation(v.name + "_crop", "Pad", {Z}, {Y}, {AffineMap(r, zr), AffineMap::identity(r)});
  node.access_overrides = {masked(node.operand_mapping[0]), std::nullopt};
  validate(node);
  return node;
}

bool writes_output_directly(const ConvTransposeGeometry& g) {
  for (std::size_t s = 0; s < g.out.size(); ++s)
    if (g.pad_begin[s] != 0 || g.scatter[s] > g.out[s]) return false;
  return true;
}

// The weight [C, K/G, k...] split by group into [G, C/G, K/G, k...]: input channel first, output
// channel in its group next; an axis of extent one per group is indexed by g alone.
AffineMap weight_map(const ConvLayout& l, std::int64_t C, std::int64_t G, std::size_t n) {
  std::vector<E> wr;
  if (G > 1) wr.push_back(E::dim(l.g));
  if (G == 1 || C / G > 1) wr.push_back(E::dim(l.c));
  wr.push_back(E::dim(l.k));
  for (std::size_t s = 0; s < n; ++s) wr.push_back(E::dim(l.f[s]));
  return AffineMap(l.dims, std::move(wr));
}

std::vector<Node> parse_conv_transpose(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 2);
  auto X = input_tensor(v, ctx, 0);
  auto W = input_tensor(v, ctx, 1);
  if (X->rank() < 3) v.fail("input must have rank >= 3 (N, C, spatial...), got " + std::to_string(X->rank()), X->name);
  if (W->rank() != X->rank()) v.fail("input and weight must have the same rank", W->name);
  const std::size_t n = X->rank() - 2;
  const auto G = v.attr_int("group", 1);
  if (G < 1 || X->shape[1] % G != 0 || W->shape[0] != X->shape[1])
    v.fail("group " + std::to_string(G) + " does not fit input channels C=" + std::to_string(X->shape[1]) + " and weight " +
               std::to_string(W->shape[0]) + "x" + std::to_string(W->shape[1]) + " (expected C x K/group)",
           W->name);
  const auto C = X->shape[1], K = W->shape[1] * G;
  const auto g = conv_transpose_geometry(v, *X, *W);
  // The output is looked up once the attributes are known good (shape inference gives no shape
  // for bad ones).
  auto Y = output_tensor(v, ctx, 0);
  Ints expected{X->shape[0], K};
  expected.insert(expected.end(), g.out.begin(), g.out.end());
  check_output_shape(v, *Y, expected, "the ConvTranspose formula");

  std::vector<Node> out;
  TensorPtr in = X, Wg = W, Yg = Y;
  if (G > 1 && C / G > 1) {
    in = grouped_view(v, ctx, *X, 1, G, "input");
    out.push_back(make_fusion_edge(v.name + "_group_input", "Reshape", X, in));
    Wg = grouped_view(v, ctx, *W, 0, G, "weight");
    out.push_back(make_fusion_edge(v.name + "_group_weight", "Reshape", W, Wg));
  }
  if (G > 1 && K / G > 1) Yg = grouped_view(v, ctx, *Y, 1, G, "output");
  TensorPtr Z = Yg;
  if (!writes_output_directly(g)) {
    auto shape = Yg->shape;
    std::copy(g.scatter.begin(), g.scatter.end(), shape.end() - static_cast<std::ptrdiff_t>(n));
    Z = ctx.new_tensor(v.name + "_scattered", Y->dtype, shape);
  }
  const auto l = conv_layout(C, K, G, g.strides, g.dilations, Ints(n, 0), /*split_groups=*/true);
  auto node = make_computation(v.name, "ConvTranspose", {in, Wg}, {Z},
                               {with_spatial_of(l.input, l.output, n), weight_map(l, C, G, n), with_spatial_of(l.output, l.input, n)});
  node.dim_names = l.names;
  for (std::size_t s = 0; s < n; ++s) node.dim_names[static_cast<std::size_t>(l.o[s])][0] = 'i';  // input positions
  if (G > 1 && C / G == 1) node.window_extents = {{l.c, 1}};  // one input channel per group: c indexes nothing
  validate(node);
  out.push_back(std::move(node));
  if (Z != Yg) out.push_back(crop(v, Z, Yg, g.pad_begin));
  if (Yg != Y) out.push_back(make_fusion_edge(v.name + "_group_output", "Reshape", Yg, Y));
  return out;
}

}  // namespace

void add_conv_transpose_parsers(std::vector<ParserEntry>& out) { out.emplace_back("ConvTranspose", parse_conv_transpose); }

}  // namespace stream::onnx_frontend
