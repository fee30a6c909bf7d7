// Resize (opsets 10, 11, 13, 18) and Upsample (opsets 7, 9): a windowed read of the input.
//
// Each resized axis with input extent I and output extent O (from shape inference; the ratio
// O/I = p/q in lowest terms, m = I/q = O/p periods) gets a loop split instead of a floordiv:
//   Q in [0, m)  the period,
//   r in [0, p)  the output phase inside a period (omitted when p == 1),
//   w in [0, W)  the window of source elements an output of any phase reads (omitted when W == 1
//                and q == 1),
// with output y[p*Q + r] and input x[q*Q + w + c]. x[o floordiv s] would be exact for a nearest
// upsampling, but floordiv makes the read piecewise-affine, which the per-core cost model cannot
// describe; the split keeps every operand axis either one bare loop or two loops with a
// non-positive constant (the forms of cost_model.cpp's axes_supported), as for a convolution
// (a downsampling by k is x[k*Q + w + c], a 1x1 strided convolution).
// The offset c and the width W are the exact minimum and span, over every output index, of the
// source indices the ONNX formula reads (nearest: the rounded coordinate; linear: its floor and
// the next element; cubic: floor-1 .. floor+2), relative to q*floor(o/p). They are computed
// unclamped, so a border read outside the input counts like a convolution's padding. For the
// periodic coordinate modes the window is the union of the phases' reads (a nearest read whose
// phases pick different neighbours is costed as the window); align_corners is not periodic and
// gets the window that bounds every output.
// The ratio comes from the shapes, so with a `scales` input whose product with I is not integral
// the coordinates use O/I rather than the given scale (a difference of under one element).
#include <algorithm>
#include <numeric>

#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

enum class Interp { Nearest, Linear, Cubic };

struct ResizeModes {
  Interp interp = Interp::Nearest;
  std::string coordinates = "half_pixel";
  std::string nearest = "round_prefer_floor";  ///< "simple": floor when upsampling, ceil when downsampling
};

std::int64_t floor_div(std::int64_t n, std::int64_t d) { return n / d - ((n % d != 0) && ((n < 0) != (d < 0)) ? 1 : 0); }

// The source coordinate of output o as the fraction num/den (den > 0), per the ONNX formulas with
// scale = O/I.
std::pair<std::int64_t, std::int64_t> source_coordinate(const std::string& mode, std::int64_t o, std::int64_t in,
                                                        std::int64_t out) {
  if (mode == "asymmetric") return {o * in, out};
  if (mode == "tf_half_pixel_for_nn") return {(2 * o + 1) * in, 2 * out};
  if (mode == "align_corners") return out == 1 ? std::pair<std::int64_t, std::int64_t>{0, 1} : std::pair{o * (in - 1), out - 1};
  if (mode == "pytorch_half_pixel" && out == 1) return {0, 1};
  // half_pixel, half_pixel_symmetric (identical when scale = O/I), pytorch_half_pixel.
  return {(2 * o + 1) * in - out, 2 * out};
}

// Source indices output o reads.
std::vector<std::int64_t> source_reads(const ResizeModes& m, std::int64_t o, std::int64_t in, std::int64_t out) {
  const auto [num, den] = source_coordinate(m.coordinates, o, in, out);
  const auto f = floor_div(num, den);
  const auto rem = num - f * den;
  if (m.interp == Interp::Linear) return rem == 0 ? std::vector{f} : std::vector{f, f + 1};
  if (m.interp == Interp::Cubic) return rem == 0 ? std::vector{f} : std::vector{f - 1, f, f + 1, f + 2};
  const bool up = out > in;
  if (m.nearest == "floor" || (m.nearest == "simple" && up)) return {f};
  if (m.nearest == "ceil" || m.nearest == "simple") return {rem == 0 ? f : f + 1};
  if (2 * rem < den) return {f};
  if (2 * rem > den) return {f + 1};
  return {m.nearest == "round_prefer_ceil" ? f + 1 : f};
}

// The largest output extent of one resized axis (16M positions; images are far smaller).
constexpr std::int64_t kMaxResizedExtent = std::int64_t{1} << 24;

struct AxisWindow {
  std::int64_t p = 1, q = 1, periods = 0, offset = 0, width = 1;
};

AxisWindow axis_window(const ResizeModes& m, std::int64_t in, std::int64_t out) {
  AxisWindow a;
  const auto g = std::gcd(in, out);
  a.p = out / g;
  a.q = in / g;
  a.periods = g;
  std::int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (std::int64_t o = 0; o < out; ++o)
    for (auto s : source_reads(m, o, in, out)) {
      const auto c = s - a.q * (o / a.p);
      lo = std::min(lo, c);
      hi = std::max(hi, c);
    }
  a.offset = lo;
  a.width = hi - lo + 1;
  return a;
}

// Builds the node: dims 0..rank-1 are the per-axis loops (the period Q on a resized axis), then
// each resized axis's phase r and window w.
Node resize_node(const OnnxNodeView& v, const TensorPtr& X, const TensorPtr& Y, const ResizeModes& modes) {
  const int rank = static_cast<int>(X->rank());
  std::vector<AxisWindow> axes;
  int dims = rank;
  for (int a = 0; a < rank; ++a) {
    const auto in = X->shape[static_cast<std::size_t>(a)], out = Y->shape[static_cast<std::size_t>(a)];
    if (in < 1 || out < 1) v.fail("axis " + std::to_string(a) + " resizes " + std::to_string(in) + " to " + std::to_string(out), Y->name);
    // axis_window walks every output position: an absurd extent (a fuzzed declared shape) would
    // hang the load, so it is refused.
    if (in != out && out > kMaxResizedExtent)
      v.fail("axis " + std::to_string(a) + " resizes to " + std::to_string(out) + " positions, more than " +
                 std::to_string(kMaxResizedExtent) + " on one axis",
             Y->name);
    axes.push_back(in == out ? AxisWindow{1, 1, in, 0, 1} : axis_window(modes, in, out));
    const auto& w = axes.back();
    dims += (w.p > 1 ? 1 : 0) + (w.width > 1 || w.q > 1 ? 1 : 0);
  }
  std::vector<E> xr, yr;
  std::vector<std::string> names = numbered_names("d", static_cast<std::size_t>(rank));
  std::vector<std::pair<int, std::int64_t>> windows;
  int next = rank;
  for (int a = 0; a < rank; ++a) {
    const auto& w = axes[static_cast<std::size_t>(a)];
    const auto sa = std::to_string(a);
    E x = E::dim(a) * w.q, y = E::dim(a) * w.p;
    if (w.p > 1 || w.q > 1) {
      names[static_cast<std::size_t>(a)] = "q" + sa;
      windows.emplace_back(a, w.periods);
    }
    if (w.p > 1) {
      y = y + E::dim(next);
      names.push_back("r" + sa);
      windows.emplace_back(next++, w.p);
    }
    if (w.width > 1 || w.q > 1) {
      x = x + E::dim(next);
      names.push_back("w" + sa);
      windows.emplace_back(next++, w.width);
    }
    xr.push_back(w.offset == 0 ? x : x + w.offset);
    yr.push_back(y);
  }
  auto node = make_computation(v.name, v.op_type, {X}, {Y}, {AffineMap(dims, xr), AffineMap(dims, yr)});
  node.dim_names = names;
  node.window_extents = windows;
  validate(node);
  return node;
}

Interp interpolation(const OnnxNodeView& v) {
  const auto mode = v.attr_string("mode", "nearest");
  if (mode == "nearest") return Interp::Nearest;
  if (mode == "linear" || (v.op_type == "Upsample" && mode == "bilinear")) return Interp::Linear;
  if (mode == "cubic" && v.op_type == "Resize") return Interp::Cubic;
  v.fail("unknown mode '" + mode + "' (expected nearest, linear" + std::string(v.op_type == "Resize" ? " or cubic)" : ")"));
}

ResizeModes resize_modes(const OnnxNodeView& v) {
  ResizeModes m;
  m.interp = interpolation(v);
  if (v.op_type == "Upsample" || (opset_of(v) > 0 && opset_of(v) < 11)) {
    // Upsample and Resize-10 predate the attributes: asymmetric coordinates, and a nearest read
    // that truncates when upsampling and rounds up when downsampling (onnxruntime's behaviour).
    m.coordinates = "asymmetric";
    m.nearest = "simple";
    return m;
  }
  static const std::vector<std::string> coordinate_modes{"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                                                         "align_corners", "asymmetric", "tf_half_pixel_for_nn"};
  m.coordinates = v.attr_string("coordinate_transformation_mode", "half_pixel");
  if (m.coordinates == "tf_crop_and_resize")
    v.fail("coordinate_transformation_mode 'tf_crop_and_resize' is not supported (it reads a region given by roi)");
  if (std::find(coordinate_modes.begin(), coordinate_modes.end(), m.coordinates) == coordinate_modes.end())
    v.fail("unknown coordinate_transformation_mode '" + m.coordinates + "'");
  m.nearest = v.attr_string("nearest_mode", "round_prefer_floor");
  if (m.nearest != "round_prefer_floor" && m.nearest != "round_prefer_ceil" && m.nearest != "floor" && m.nearest != "ceil")
    v.fail("unknown nearest_mode '" + m.nearest + "'");
  return m;
}

// Attributes and inputs that change which elements are read beyond what the shapes say.
void check_resize_inputs(const OnnxNodeView& v, const Tensor& X, const Tensor& Y) {
  if (X.rank() != Y.rank()) v.fail("input and output ranks differ", Y.name);
  if (v.op_type == "Upsample") {
    if (v.has_attribute("scales")) {
      const auto it = v.attributes.find("scales");
      if (it->second.floats.size() != X.rank()) v.fail("scales must have one value per input axis", X.name);
      for (auto s : it->second.floats)
        if (s < 1) v.fail("Upsample scales must be >= 1");
    } else if (!has_input(v, 1)) {
      v.fail("needs scales (an attribute before opset 9, an input from opset 9)");
    }
    for (std::size_t a = 0; a < X.rank(); ++a)
      if (Y.shape[a] < X.shape[a]) v.fail("Upsample cannot shrink axis " + std::to_string(a), Y.name);
    return;
  }
  const bool opset10 = opset_of(v) > 0 && opset_of(v) < 11;
  const bool scales = has_input(v, opset10 ? 1 : 2) && !v.inputs[opset10 ? 1 : 2].shape.empty() &&
                      v.inputs[opset10 ? 1 : 2].shape[0] != 0;
  const bool sizes = !opset10 && has_input(v, 3) && !v.inputs[3].shape.empty() && v.inputs[3].shape[0] != 0;
  if (scales == sizes) v.fail("exactly one of scales and sizes must be given");
  if (v.attr_int("antialias", 0) != 0)
    for (std::size_t a = 0; a < X.rank(); ++a)
      if (Y.shape[a] < X.shape[a]) v.fail("antialias with downsampling is not supported (a filter wider than the mode's)");
  const auto policy = v.attr_string("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    v.fail("unknown keep_aspect_ratio_policy '" + policy + "'");
  const auto axes = v.attr_ints("axes");
  std::vector<bool> seen(X.rank(), false);
  for (auto a : axes) {
    const auto n = static_cast<std::size_t>(normalize_axis(v, a, X.rank()));
    if (seen[n]) v.fail("axes lists axis " + std::to_string(a) + " twice");
    seen[n] = true;
  }
  if (sizes && v.inputs[3].int_values) {
    const auto& s = *v.inputs[3].int_values;
    const auto expected = axes.empty() ? X.rank() : axes.size();
    if (s.size() != expected) v.fail("sizes has " + std::to_string(s.size()) + " values; expected " + std::to_string(expected));
    for (auto x : s)
      if (x < 1) v.fail("sizes must be >= 1");
  }
}

std::vector<Node> parse_resize(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  const auto modes = resize_modes(v);  // before the output: shape inference gives none for bad modes
  auto Y = output_tensor(v, ctx, 0);
  check_resize_inputs(v, *X, *Y);
  return {resize_node(v, X, Y, modes)};
}

}  // namespace

void add_resize_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("Resize", parse_resize);
  out.emplace_back("Upsample", parse_resize);
}

}  // namespace stream::onnx_frontend
