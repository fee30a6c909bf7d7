#include "conv_transpose_geometry.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include <stream/ir/checked.hpp>

namespace stream::onnx_frontend {
namespace {

using Ints = std::vector<std::int64_t>;

Ints per_axis(const OnnxNodeView& v, const std::string& key, std::size_t n, std::int64_t fallback, std::int64_t min) {
  auto vals = v.attr_ints(key, Ints(n, fallback));
  if (vals.size() != n)
    v.fail(key + " has " + std::to_string(vals.size()) + " values; expected one per spatial axis (" + std::to_string(n) + ")");
  for (auto x : vals)
    if (x < min) v.fail(key + " must be >= " + std::to_string(min) + ", got " + std::to_string(x));
  return vals;
}

// Python's total // 2: ONNX's reference splits a negative total padding (an output_shape larger
// than the scatter) with floor division, which puts the extra output element at the end.
std::int64_t floor_half(std::int64_t total) { return total >= 0 ? total / 2 : -((1 - total) / 2); }

std::string auto_pad_of(const OnnxNodeView& v) {
  const auto auto_pad = v.attr_string("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER" && !auto_pad.empty())
    v.fail("unknown auto_pad '" + auto_pad + "'");
  return auto_pad;
}

// output_shape's spatial extents, or none.
Ints target_extents(const OnnxNodeView& v, std::size_t n) {
  Ints target = v.attr_ints("output_shape");
  if (target.size() == n + 2) target.erase(target.begin(), target.begin() + 2);
  if (!target.empty() && target.size() != n)
    v.fail("output_shape has " + std::to_string(target.size()) + " values; expected one per spatial axis");
  for (auto t : target)
    if (t < 1) v.fail("output_shape must be >= 1, got " + std::to_string(t));
  return target;
}

Ints explicit_pads(const OnnxNodeView& v, std::size_t n) {
  Ints pads = v.attr_ints("pads", Ints(2 * n, 0));
  if (pads.size() != 2 * n) v.fail("pads has " + std::to_string(pads.size()) + " values; expected " + std::to_string(2 * n));
  for (auto p : pads)
    if (p < 0) v.fail("pads must be >= 0, got " + std::to_string(p));
  return pads;
}

// SAME_* as ONNX's shape inference pads it (which gives the output its shape): a total of
// max(0, span - s), the larger half at the end for SAME_UPPER. It ignores output_padding, so the
// output is in*s + output_padding rather than the spec's in*s, and with a stride beyond the
// kernel's span it is the scatter.
Ints same_pads(const Ints& spans, const Ints& strides, bool upper) {
  const std::size_t n = strides.size();
  Ints pads(2 * n, 0);
  for (std::size_t s = 0; s < n; ++s) {
    const auto total = std::max<std::int64_t>(0, spans[s] - strides[s]);
    pads[s] = upper ? total / 2 : total - total / 2;
    pads[s + n] = total - pads[s];
  }
  return pads;
}

// The pads output_shape implies on axis s (begin, end), from the spec's total padding.
std::pair<std::int64_t, std::int64_t> output_shape_pads(const OnnxNodeView& v, const ConvTransposeGeometry& g, std::size_t s,
                                                        std::int64_t full, std::int64_t target, bool upper) {
  // Beyond the scatter, an output_shape may add what output_padding could: fewer than
  // max(stride, dilation) elements.
  if (target - g.scatter[s] >= std::max(g.strides[s], g.dilations[s]))
    v.fail("output_shape " + std::to_string(target) + " exceeds the full output " + std::to_string(full) +
           " by more than output_padding may add (fewer than max(stride, dilation) elements beyond " +
           std::to_string(g.scatter[s]) + ")");
  const auto total = full - target;
  const auto begin = upper ? floor_half(total) : total - floor_half(total);
  return {begin, total - begin};
}

// Kernel spans (k-1)*d + 1 and scatter extents s*(in-1) + span, checked against overflow.
Ints spans_and_scatter(const OnnxNodeView& v, const Tensor& X, ConvTransposeGeometry& g) {
  const auto what = [&] { return "node '" + v.name + "' (output extent)"; };
  Ints spans;
  for (std::size_t s = 0; s < g.kernel.size(); ++s) {
    spans.push_back(checked_add(checked_mul(g.kernel[s] - 1, g.dilations[s], what), 1, what));
    g.scatter.push_back(checked_add(checked_mul(g.strides[s], X.shape[2 + s] - 1, what), spans.back(), what));
  }
  return spans;
}

void check_extents(const OnnxNodeView& v, const Tensor& X, const Tensor& W, const Ints& kernel) {
  if (v.has_attribute("kernel_shape") && v.attr_ints("kernel_shape") != kernel)
    v.fail("kernel_shape disagrees with the weight shape", W.name);
  for (std::size_t s = 0; s < kernel.size(); ++s) {
    if (kernel[s] < 1) v.fail("the weight's kernel extents must be >= 1", W.name);
    if (X.shape[2 + s] < 1) v.fail("the input's spatial extents must be >= 1", X.name);
  }
}

}  // namespace

ConvTransposeGeometry conv_transpose_geometry(const OnnxNodeView& v, const Tensor& X, const Tensor& W) {
  const std::size_t n = X.rank() - 2;
  ConvTransposeGeometry g;
  g.kernel.assign(W.shape.begin() + 2, W.shape.end());
  check_extents(v, X, W, g.kernel);
  g.strides = per_axis(v, "strides", n, 1, 1);
  g.dilations = per_axis(v, "dilations", n, 1, 1);
  const auto out_pad = per_axis(v, "output_padding", n, 0, 0);
  for (std::size_t s = 0; s < n; ++s)
    if (out_pad[s] >= std::max(g.strides[s], g.dilations[s]))
      v.fail("output_padding " + std::to_string(out_pad[s]) + " must be smaller than the stride or the dilation");
  const auto auto_pad = auto_pad_of(v);
  const auto target = target_extents(v, n);
  const auto spans = spans_and_scatter(v, X, g);
  const bool upper = auto_pad == "SAME_UPPER";
  auto pads = !target.empty() || auto_pad == "VALID"          ? Ints(2 * n, 0)
              : upper || auto_pad == "SAME_LOWER" ? same_pads(spans, g.strides, upper)
                                                              : explicit_pads(v, n);
  for (std::size_t s = 0; s < n; ++s) {
    const auto full = g.scatter[s] + out_pad[s];
    if (!target.empty()) std::tie(pads[s], pads[s + n]) = output_shape_pads(v, g, s, full, target[s], upper);
    g.pad_begin.push_back(pads[s]);
    g.out.push_back(full - pads[s] - pads[s + n]);
    if (g.out.back() < 1)
      v.fail("pads " + std::to_string(pads[s]) + " and " + std::to_string(pads[s + n]) + " leave no output of the full extent " +
             std::to_string(full) + " on spatial axis " + std::to_string(s));
  }
  return g;
}

}  // namespace stream::onnx_frontend
