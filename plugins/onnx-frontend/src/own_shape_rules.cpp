#include "own_shape_rules.hpp"

#include "shape_values.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>

namespace stream::onnx_frontend {
namespace {

using Dims = std::vector<std::int64_t>;
using Outputs = std::vector<std::optional<OwnOutput>>;
using Fail = std::function<void(const std::string&)>;

// What a rule sees of one node: its attributes, its inputs' shapes and constants.
struct RuleNode {
  const onnx::NodeProto& n;
  const ShapeRuleInputs& in;
  const Fail& fail;

  const onnx::AttributeProto* attr(const std::string& name) const {
    for (const auto& a : n.attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  std::int64_t attr_int(const std::string& name, std::int64_t dflt) const {
    const auto* a = attr(name);
    return a ? a->i() : dflt;
  }
  float attr_float(const std::string& name, float dflt) const {
    const auto* a = attr(name);
    return a ? a->f() : dflt;
  }
  Dims attr_ints(const std::string& name, Dims dflt = {}) const {
    const auto* a = attr(name);
    return a ? Dims(a->ints().begin(), a->ints().end()) : dflt;
  }
  std::string attr_string(const std::string& name, const std::string& dflt) const {
    const auto* a = attr(name);
    return a ? a->s() : dflt;
  }
  bool present(int i) const { return i < n.input_size() && !n.input(i).empty(); }
  const Dims* shape(int i) const { return present(i) ? in.shape(n.input(i)) : nullptr; }
  int elem(int i) const { return present(i) ? in.elem(n.input(i)) : 0; }
  const onnx::TensorProto* constant(int i) const { return present(i) ? in.constant(n.input(i)) : nullptr; }
  std::optional<Dims> ints(int i) const {
    const auto* t = constant(i);
    return t ? int_data(*t) : std::nullopt;
  }
  // The values of a constant float tensor stored in the model (scales); nullopt otherwise.
  std::optional<std::vector<float>> floats(int i) const {
    const auto* t = constant(i);
    if (!t || t->data_type() != onnx::TensorProto::FLOAT || !t->external_data().empty()) return std::nullopt;
    if (t->float_data_size() > 0) return std::vector<float>(t->float_data().begin(), t->float_data().end());
    std::vector<float> v(t->raw_data().size() / sizeof(float));
    if (!v.empty()) std::memcpy(v.data(), t->raw_data().data(), v.size() * sizeof(float));
    std::int64_t count = 1;
    for (auto d : t->dims())
      if (d < 0 || __builtin_mul_overflow(count, d, &count)) return std::nullopt;
    if (static_cast<std::int64_t>(v.size()) != count) return std::nullopt;
    return v;
  }
  std::size_t outputs() const { return static_cast<std::size_t>(n.output_size()); }
  // Extent arithmetic on values a model chooses (attributes, constants): an overflow is an error,
  // not a wrapped extent.
  std::int64_t mul(std::int64_t a, std::int64_t b) const {
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out)) fail("an extent overflows (" + std::to_string(a) + " * " + std::to_string(b) + ")");
    return out;
  }
  std::int64_t add(std::int64_t a, std::int64_t b) const {
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out)) fail("an extent overflows (" + std::to_string(a) + " + " + std::to_string(b) + ")");
    return out;
  }
  // A float extent (a scaled size) as an integer; fails when it is not one an extent can be.
  std::int64_t extent(double value) const {
    if (!(value >= 0 && value < 9.0e18)) fail("a scaled extent (" + std::to_string(value) + ") is out of range");
    return static_cast<std::int64_t>(value);
  }
  // A normalised axis; fails naming the attribute when out of range.
  std::int64_t axis(std::int64_t a, std::size_t rank, const std::string& what) const {
    const auto r = static_cast<std::int64_t>(rank);
    if (a < -r || a >= r) fail(what + " " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    return a < 0 ? a + r : a;
  }
};

Outputs one(int elem, Dims shape) { return {OwnOutput{elem, std::move(shape)}}; }

// Outputs shaped like input 0 (normalizations, activations, caches updated in place).
Outputs like_input(const RuleNode& r) {
  const auto* x = r.shape(0);
  if (!x) return {};
  return one(r.elem(0), *x);
}

// NumPy multidirectional broadcast of every present input.
Outputs broadcast(const RuleNode& r) {
  Dims out;
  for (int i = 0; i < r.n.input_size(); ++i) {
    const auto* s = r.shape(i);
    if (!s) return {};
    if (s->size() > out.size()) out.insert(out.begin(), s->size() - out.size(), 1);
    for (std::size_t k = 0; k < s->size(); ++k) {
      auto& o = out[out.size() - s->size() + k];
      const auto e = (*s)[k];
      if (e != o && e != 1 && o != 1) r.fail("inputs cannot broadcast: extent " + std::to_string(e) + " against " + std::to_string(o));
      if (o == 1) o = e;
    }
  }
  return one(r.elem(0), out);
}

// Attention (opset 23): Q, K, V as (B, S, H*E) with q_num_heads/kv_num_heads, or (B, H, S, E);
// past_key/past_value (B, Hkv, P, E); outputs Y in Q's layout with V's head size, present_key and
// present_value (B, Hkv, P + Skv, E), and the scores (B, Hq, Sq, P + Skv).
Outputs attention(const RuleNode& r) {
  const auto *q = r.shape(0), *k = r.shape(1), *v = r.shape(2);
  if (!q || !k || !v) return {};
  if (q->size() != k->size() || q->size() != v->size() || (q->size() != 3 && q->size() != 4))
    r.fail("Q, K and V must all be 3-D (B, S, heads*size) or all 4-D (B, heads, S, size)");
  const bool three = q->size() == 3;
  const auto hq = three ? r.attr_int("q_num_heads", 0) : (*q)[1];
  const auto hkv = three ? r.attr_int("kv_num_heads", 0) : (*k)[1];
  if (hq < 1 || hkv < 1) r.fail("3-D inputs need q_num_heads and kv_num_heads >= 1");
  if (three && ((*q)[2] % hq != 0 || (*k)[2] % hkv != 0 || (*v)[2] % hkv != 0))
    r.fail("the hidden sizes of Q, K and V must divide by their numbers of heads");
  const auto sq = three ? (*q)[1] : (*q)[2];
  const auto skv = three ? (*k)[1] : (*k)[2];
  const auto e = three ? (*k)[2] / hkv : (*k)[3];
  const auto ev = three ? (*v)[2] / hkv : (*v)[3];
  std::int64_t past = 0;
  if (r.present(4)) {
    const auto* pk = r.shape(4);
    if (!pk) return {};
    if (pk->size() != 4) r.fail("past_key must be 4-D (B, kv_heads, past, head_size)");
    past = (*pk)[2];
  }
  const auto b = (*q)[0], total = r.add(past, skv);
  Outputs out(r.outputs());
  if (!out.empty()) out[0] = OwnOutput{r.elem(0), three ? Dims{b, sq, r.mul(hq, ev)} : Dims{b, hq, sq, ev}};
  if (out.size() > 1) out[1] = OwnOutput{r.elem(1), {b, hkv, total, e}};
  if (out.size() > 2) out[2] = OwnOutput{r.elem(2), {b, hkv, total, ev}};
  if (out.size() > 3) out[3] = OwnOutput{r.elem(0), {b, hq, sq, total}};
  return out;
}

// The axes a Reduce* (opset 18) reduces: its second input, or all unless noop_with_empty_axes.
Outputs reduce(const RuleNode& r) {
  const auto* x = r.shape(0);
  if (!x) return {};
  Dims axes;
  if (r.present(1)) {
    auto known = r.ints(1);
    if (!known) return {};
    axes = *known;
  }
  const bool keep = r.attr_int("keepdims", 1) != 0;
  if (axes.empty() && r.attr_int("noop_with_empty_axes", 0) != 0) return one(r.elem(0), *x);
  std::vector<bool> reduced(x->size(), axes.empty());
  for (auto a : axes) reduced[static_cast<std::size_t>(r.axis(a, x->size(), "axis"))] = true;
  Dims out;
  for (std::size_t a = 0; a < x->size(); ++a) {
    if (!reduced[a]) out.push_back((*x)[a]);
    else if (keep) out.push_back(1);
  }
  return one(r.elem(0), out);
}

// Pad (opset 18): pads as an input, over the axes of the optional fourth input.
Outputs pad(const RuleNode& r) {
  const auto* x = r.shape(0);
  auto pads = r.ints(1);
  if (!x || !pads) return {};
  Dims axes;
  if (r.present(3)) {
    auto known = r.ints(3);
    if (!known) return {};
    axes = *known;
  } else {
    axes.resize(x->size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (pads->size() != 2 * axes.size())
    r.fail("pads has " + std::to_string(pads->size()) + " values; two per padded axis (" + std::to_string(2 * axes.size()) + ") expected");
  Dims out = *x;
  for (std::size_t j = 0; j < axes.size(); ++j) {
    const auto a = static_cast<std::size_t>(r.axis(axes[j], x->size(), "axis"));
    out[a] = r.add(out[a], r.add((*pads)[j], (*pads)[j + axes.size()]));
    if (out[a] < 0) r.fail("pads make axis " + std::to_string(a) + " negative");
  }
  return one(r.elem(0), out);
}

// Split (opset 18): the split input, or num_outputs parts of ceil(extent / num_outputs) with a
// smaller last one, or (neither) equal parts, one per output.
Outputs split(const RuleNode& r) {
  const auto* x = r.shape(0);
  if (!x) return {};
  const auto a = static_cast<std::size_t>(r.axis(r.attr_int("axis", 0), x->size(), "axis"));
  const auto extent = (*x)[a];
  const auto n = static_cast<std::int64_t>(r.outputs());
  if (n < 1) r.fail("the node has no outputs");
  Dims parts;
  if (r.present(1)) {
    auto known = r.ints(1);
    if (!known) return {};
    parts = *known;
  } else if (r.attr("num_outputs")) {
    const auto k = r.attr_int("num_outputs", 0);
    if (k != n) r.fail("num_outputs is " + std::to_string(k) + " but the node has " + std::to_string(n) + " outputs");
    const auto chunk = extent / k + (extent % k != 0 ? 1 : 0);
    for (std::int64_t i = 0; i < k; ++i) parts.push_back(std::max<std::int64_t>(0, std::min(chunk, extent - r.mul(i, chunk))));
  } else {
    if (extent % n != 0) r.fail("axis extent " + std::to_string(extent) + " does not split into " + std::to_string(n) + " equal parts");
    parts.assign(static_cast<std::size_t>(n), extent / n);
  }
  std::int64_t total = 0;
  for (auto p : parts) {
    if (p < 0) r.fail("split part " + std::to_string(p) + " is negative");
    total = r.add(total, p);
  }
  if (static_cast<std::int64_t>(parts.size()) != n || total != extent)
    r.fail("the parts do not add up to the axis extent " + std::to_string(extent) + " over " + std::to_string(n) + " outputs");
  Outputs out;
  for (auto p : parts) {
    Dims s = *x;
    s[a] = p;
    out.push_back(OwnOutput{r.elem(0), s});
  }
  return out;
}

// Resize (opset 18/19): sizes or scales over `axes`, sizes kept to the aspect ratio unless the
// policy is "stretch".
Outputs resize(const RuleNode& r) {
  const auto* x = r.shape(0);
  if (!x) return {};
  Dims axes = r.attr_ints("axes");
  if (axes.empty()) {
    axes.resize(x->size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  for (auto& a : axes) a = r.axis(a, x->size(), "axis");
  Dims out = *x;
  std::optional<Dims> sizes = r.present(3) ? r.ints(3) : std::nullopt;
  if (r.present(3) && !sizes) return {};
  if (sizes && !sizes->empty()) {
    if (sizes->size() != axes.size()) r.fail("sizes must have one value per resized axis");
    const auto policy = r.attr_string("keep_aspect_ratio_policy", "stretch");
    if (policy == "stretch") {
      for (std::size_t j = 0; j < axes.size(); ++j) out[static_cast<std::size_t>(axes[j])] = (*sizes)[j];
      return one(r.elem(0), out);
    }
    if (policy != "not_larger" && policy != "not_smaller") r.fail("unknown keep_aspect_ratio_policy '" + policy + "'");
    double scale = policy == "not_larger" ? 1e300 : 0;
    for (std::size_t j = 0; j < axes.size(); ++j) {
      const double s = static_cast<double>((*sizes)[j]) / static_cast<double>((*x)[static_cast<std::size_t>(axes[j])]);
      scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
    }
    for (auto a : axes) out[static_cast<std::size_t>(a)] = r.extent(std::round(scale * static_cast<double>((*x)[static_cast<std::size_t>(a)])));
    return one(r.elem(0), out);
  }
  auto scales = r.floats(2);
  if (!scales) return {};  // not a constant (yet): the shape stays open
  if (scales->size() != axes.size()) r.fail("scales must have one value per resized axis");
  for (std::size_t j = 0; j < axes.size(); ++j) {
    auto& o = out[static_cast<std::size_t>(axes[j])];
    o = r.extent(std::floor(static_cast<float>(o) * (*scales)[j]));  // float, as ONNX's rule
  }
  return one(r.elem(0), out);
}

// Pooling at every opset: kernel_shape, strides, pads or auto_pad, dilations, ceil_mode; with
// ceil_mode a last window that would start in the right padding is dropped (ONNX's corrected rule).
Outputs pool(const RuleNode& r) {
  const auto* x = r.shape(0);
  if (!x) return {};
  if (x->size() < 3) r.fail("the input must be (N, C, spatial...)");
  const std::size_t n = x->size() - 2;
  const auto kernel = r.attr_ints("kernel_shape");
  if (kernel.size() != n) r.fail("kernel_shape must have one value per spatial axis (" + std::to_string(n) + ")");
  const auto strides = r.attr_ints("strides", Dims(n, 1));
  const auto dil = r.attr_ints("dilations", Dims(n, 1));
  auto pads = r.attr_ints("pads", Dims(2 * n, 0));
  if (strides.size() != n || dil.size() != n || pads.size() != 2 * n)
    r.fail("strides and dilations need one value per spatial axis, pads two");
  const auto auto_pad = r.attr_string("auto_pad", "NOTSET");
  const bool ceil_mode = r.attr_int("ceil_mode", 0) != 0;
  Dims out{(*x)[0], (*x)[1]};
  for (std::size_t s = 0; s < n; ++s) {
    const auto in = (*x)[2 + s], k = kernel[s], st = strides[s], d = dil[s];
    if (k < 1 || st < 1 || d < 1) r.fail("kernel_shape, strides and dilations must be positive");
    const auto eff = r.add(r.mul(k - 1, d), 1);
    std::int64_t o = 0;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      o = in / st + (in % st != 0 ? 1 : 0);
    } else if (auto_pad == "VALID") {
      o = in >= eff ? (in - eff) / st + 1 : 0;
    } else if (auto_pad == "NOTSET" || auto_pad.empty()) {
      const auto span = r.add(r.add(in, pads[s]), pads[s + n]) - eff;
      if (span < 0) r.fail("the window (" + std::to_string(eff) + ") is larger than the padded input on spatial axis " + std::to_string(s));
      auto positions = span / st + (ceil_mode && span % st != 0 ? 1 : 0);
      if (ceil_mode && r.mul(positions, st) >= r.add(in, pads[s])) --positions;
      o = positions + 1;
    } else {
      r.fail("unknown auto_pad '" + auto_pad + "'");
    }
    out.push_back(o);
  }
  Outputs result{OwnOutput{r.elem(0), out}};
  if (r.outputs() > 1) result.push_back(OwnOutput{onnx::TensorProto::INT64, out});  // MaxPool's Indices
  return result;
}

// GridSample (opset 20, N spatial axes): (N, C, D1.., ) sampled at grid (N, O1.., r) -> (N, C, O1..).
Outputs grid_sample(const RuleNode& r) {
  const auto *x = r.shape(0), *grid = r.shape(1);
  if (!x || !grid) return {};
  if (x->size() < 3 || grid->size() != x->size() || grid->back() != static_cast<std::int64_t>(x->size()) - 2 ||
      (*grid)[0] != (*x)[0])
    r.fail("grid must be (N, out spatial..., " + std::to_string(x->size() - 2) + ") for an input of rank " + std::to_string(x->size()));
  Dims out{(*x)[0], (*x)[1]};
  out.insert(out.end(), grid->begin() + 1, grid->end() - 1);
  return one(r.elem(0), out);
}

// AffineGrid (opset 20): theta (N, 2, 3) or (N, 3, 4) and size (N, C, H, W) or (N, C, D, H, W)
// -> (N, H, W, 2) or (N, D, H, W, 3).
Outputs affine_grid(const RuleNode& r) {
  auto size = r.ints(1);
  if (!size) return {};
  if (size->size() != 4 && size->size() != 5) r.fail("size must have 4 or 5 values");
  Dims out{(*size)[0]};
  out.insert(out.end(), size->begin() + 2, size->end());
  out.push_back(static_cast<std::int64_t>(size->size()) - 2);
  return one(r.elem(0), out);
}

// Col2Im (opset 18): (N, C * prod(block_shape), L) -> (N, C, image_shape...).
Outputs col2im(const RuleNode& r) {
  const auto* x = r.shape(0);
  auto image = r.ints(1);
  auto block = r.ints(2);
  if (!x || !image || !block) return {};
  if (x->size() != 3 || image->size() != block->size() || image->empty())
    r.fail("expects a 3-D input and image_shape and block_shape of one equal length");
  std::int64_t cells = 1;
  for (auto b : *block) cells = r.mul(cells, b);
  if (cells < 1 || (*x)[1] % cells != 0) r.fail("the input's axis 1 does not divide by the block size");
  Dims out{(*x)[0], (*x)[1] / cells};
  out.insert(out.end(), image->begin(), image->end());
  return one(r.elem(0), out);
}

// CenterCropPad (opset 18): the axes (default all) take the extents of the shape input.
Outputs center_crop_pad(const RuleNode& r) {
  const auto* x = r.shape(0);
  auto target = r.ints(1);
  if (!x || !target) return {};
  Dims axes = r.attr_ints("axes");
  if (axes.empty()) {
    axes.resize(x->size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (axes.size() != target->size()) r.fail("shape must have one value per axis");
  Dims out = *x;
  for (std::size_t j = 0; j < axes.size(); ++j) out[static_cast<std::size_t>(r.axis(axes[j], x->size(), "axis"))] = (*target)[j];
  return one(r.elem(0), out);
}

// DeformConv (opset 19): a convolution's output extents from X (N, C, ...) and W (oC, C/g, k...).
Outputs deform_conv(const RuleNode& r) {
  const auto *x = r.shape(0), *w = r.shape(1);
  if (!x || !w) return {};
  if (x->size() < 3 || w->size() != x->size()) r.fail("X and W must have equal rank >= 3");
  const std::size_t n = x->size() - 2;
  const auto kernel = r.attr_ints("kernel_shape", Dims(w->begin() + 2, w->end()));
  const auto strides = r.attr_ints("strides", Dims(n, 1));
  const auto dil = r.attr_ints("dilations", Dims(n, 1));
  const auto pads = r.attr_ints("pads", Dims(2 * n, 0));
  if (kernel.size() != n || strides.size() != n || dil.size() != n || pads.size() != 2 * n)
    r.fail("kernel_shape, strides, dilations need one value per spatial axis, pads two");
  Dims out{(*x)[0], (*w)[0]};
  for (std::size_t s = 0; s < n; ++s) {
    const auto span = r.add(r.add((*x)[2 + s], pads[s]), pads[s + n]) - r.add(r.mul(kernel[s] - 1, dil[s]), 1);
    if (span < 0 || strides[s] < 1) r.fail("the kernel is larger than the padded input");
    out.push_back(span / strides[s] + 1);
  }
  return one(r.elem(0), out);
}

// DFT (opset 20): axis (default -2) and dft_length as inputs. The transformed axis takes n_fft
// (dft_length, else the signal's extent), or n_fft/2 + 1 when onesided; the last axis is the
// output's components, 2, or 1 for the real output of an inverse onesided transform, whose n_fft
// defaults to 2 * (extent - 1).
Outputs dft(const RuleNode& r) {
  const auto* x = r.shape(0);
  if (!x) return {};
  std::int64_t axis = -2;
  if (r.present(2)) {
    auto known = r.ints(2);
    if (!known || known->size() != 1) return {};
    axis = known->front();
  }
  if (x->size() < 2) r.fail("the signal must have a components axis");
  const auto a = static_cast<std::size_t>(r.axis(axis, x->size(), "axis"));
  if (a == x->size() - 1) r.fail("the transformed axis cannot be the last (components) axis");
  const bool onesided = r.attr_int("onesided", 0) != 0, inverse = r.attr_int("inverse", 0) != 0;
  std::int64_t n = (*x)[a];
  if (inverse && onesided) n = r.mul(2, (*x)[a] - 1);
  if (r.present(1)) {
    auto known = r.ints(1);
    if (!known || known->size() != 1) return {};
    n = known->front();
  }
  if (n < 1) r.fail("dft_length must be positive");
  Dims out = *x;
  out[a] = onesided && !inverse ? n / 2 + 1 : n;
  out.back() = inverse && onesided ? 1 : 2;
  return one(r.elem(0), out);
}

// CausalConvWithState: the output is the input's shape, the state (B, C, K-1) for a weight (C, 1, K).
Outputs causal_conv(const RuleNode& r) {
  const auto *x = r.shape(0), *w = r.shape(1);
  if (!x || !w) return {};
  if (x->size() != 3 || w->size() != 3) r.fail("expects input (B, C, L) and weight (C, 1, K)");
  Outputs out{OwnOutput{r.elem(0), *x}};
  if (r.outputs() > 1) out.push_back(OwnOutput{r.elem(0), {(*x)[0], (*x)[1], (*w)[2] - 1}});
  return out;
}

// LinearAttention: (B, S, q_heads * Dv) and the state (B, kv_heads, Dk, Dv), Dk and Dv the key's
// and value's hidden sizes over kv_heads.
Outputs linear_attention(const RuleNode& r) {
  const auto *q = r.shape(0), *k = r.shape(1), *v = r.shape(2);
  if (!q || !k || !v) return {};
  const auto hq = r.attr_int("q_num_heads", 0), hkv = r.attr_int("kv_num_heads", 0);
  if (q->size() != 3 || k->size() != 3 || v->size() != 3 || hq < 1 || hkv < 1 || (*k)[2] % hkv != 0 || (*v)[2] % hkv != 0)
    r.fail("query, key and value must be (B, S, heads*size) with q_num_heads and kv_num_heads dividing them");
  const auto dk = (*k)[2] / hkv, dv = (*v)[2] / hkv;
  Outputs out{OwnOutput{r.elem(0), {(*q)[0], (*q)[1], r.mul(hq, dv)}}};
  if (r.outputs() > 1) out.push_back(OwnOutput{r.elem(0), {(*q)[0], hkv, dk, dv}});
  return out;
}

using Rule = Outputs (*)(const RuleNode&);

struct OwnRule {
  std::int64_t since;
  Rule rule;
};

const std::map<std::string, OwnRule>& rules() {
  static const std::map<std::string, OwnRule> table = [] {
    std::map<std::string, OwnRule> t{
        {"Attention", {23, attention}},         {"RMSNormalization", {23, like_input}},
        {"RotaryEmbedding", {23, like_input}},  {"GroupNormalization", {18, like_input}},
        {"TensorScatter", {24, like_input}},    {"Swish", {24, like_input}},
        {"BitwiseNot", {18, like_input}},       {"BitwiseAnd", {18, broadcast}},
        {"BitwiseOr", {18, broadcast}},         {"BitwiseXor", {18, broadcast}},
        {"CumProd", {26, like_input}},          {"Pad", {18, pad}},
        {"Split", {18, split}},                 {"Resize", {18, resize}},
        {"MaxPool", {1, pool}},                 {"AveragePool", {1, pool}},
        {"LpPool", {1, pool}},                  {"GridSample", {20, grid_sample}},
        {"AffineGrid", {20, affine_grid}},      {"Col2Im", {18, col2im}},
        {"CenterCropPad", {18, center_crop_pad}}, {"DeformConv", {19, deform_conv}},
        {"DFT", {20, dft}},                     {"CausalConvWithState", {1, causal_conv}},
        {"LinearAttention", {1, linear_attention}},  {"FlexAttention", {1, attention}},
        {"SwiGLU", {1, broadcast}},
    };
    for (const char* op : {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                           "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"})
      t.emplace(op, OwnRule{18, reduce});
    return t;
  }();
  return table;
}

}  // namespace

bool has_own_shape_rule(const std::string& op_type, std::int64_t opset) {
  const auto it = rules().find(op_type);
  return it != rules().end() && opset >= it->second.since;
}

std::vector<std::optional<OwnOutput>> own_output_shapes(const onnx::NodeProto& node, std::int64_t opset,
                                                        const ShapeRuleInputs& in, const Fail& fail) {
  if (!has_own_shape_rule(node.op_type(), opset)) return {};
  const RuleNode r{node, in, fail};
  auto out = rules().at(node.op_type()).rule(r);
  out.resize(static_cast<std::size_t>(node.output_size()));
  return out;
}

}  // namespace stream::onnx_frontend
