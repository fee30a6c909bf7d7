// MaxPool, AveragePool (and LpPool), GlobalAveragePool, GlobalMaxPool and LRN: windowed reductions.
// Kernel loops are indexed only inside the window expression `s*o + dil*f - pad`, so their
// extents are given as window_extents (the reference inferred them and ignored kernel_shape).
#include <algorithm>

#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

using E = AffineExpr;

std::vector<Node> parse_pool(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (v.outputs.size() > 1 && v.outputs[1].present())
    v.fail("the Indices output is not supported (an int64 tensor read by another node)", v.outputs[1].name);
  if (X->rank() < 3 || Y->rank() != X->rank()) v.fail("expects (N, C, spatial...) input and output of equal rank", X->name);
  const std::size_t n = X->rank() - 2;
  const auto kernel = v.attr_ints("kernel_shape");
  if (kernel.size() != n) v.fail("kernel_shape must have one value per spatial axis (" + std::to_string(n) + ")");
  auto strides = v.attr_ints("strides", std::vector<std::int64_t>(n, 1));
  auto dil = v.attr_ints("dilations", std::vector<std::int64_t>(n, 1));
  if (strides.size() != n || dil.size() != n) v.fail("strides and dilations must have one value per spatial axis");
  const auto auto_pad = v.attr_string("auto_pad", "NOTSET");
  std::vector<std::int64_t> pad(n, 0);
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (std::size_t s = 0; s < n; ++s) {
      const auto total = std::max<std::int64_t>(
          0, (Y->shape[2 + s] - 1) * strides[s] + (kernel[s] - 1) * dil[s] + 1 - X->shape[2 + s]);
      pad[s] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    }
  } else if (auto_pad == "NOTSET" || auto_pad.empty()) {
    auto pads = v.attr_ints("pads", std::vector<std::int64_t>(2 * n, 0));
    if (pads.size() != 2 * n) v.fail("pads must have " + std::to_string(2 * n) + " values");
    for (std::size_t s = 0; s < n; ++s) pad[s] = pads[s];
  } else if (auto_pad != "VALID") {
    v.fail("unknown auto_pad '" + auto_pad + "'");
  }
  // Dims: b, c, o_1..o_n (axis order: oy, ox), f_1..f_n. ceil_mode only changes the output
  // extent, which shape inference already gives.
  const int ni = static_cast<int>(n), dims = 2 + 2 * ni;
  std::vector<E> xr{E::dim(0), E::dim(1)}, yr{E::dim(0), E::dim(1)};
  std::vector<std::string> names{"b", "c"};
  const std::vector<std::string> sp2{"y", "x"};
  for (std::size_t s = 0; s < n; ++s) names.push_back("o" + (n == 2 ? sp2[s] : std::to_string(s)));
  for (std::size_t s = 0; s < n; ++s) names.push_back("f" + (n == 2 ? sp2[s] : std::to_string(s)));
  Node node;
  std::vector<std::pair<int, std::int64_t>> windows;
  for (std::size_t s = 0; s < n; ++s) {
    const int o = 2 + static_cast<int>(s), f = 2 + ni + static_cast<int>(s);
    xr.push_back(E::dim(o) * strides[s] + E::dim(f) * dil[s] - pad[s]);
    yr.push_back(E::dim(o));
    windows.emplace_back(f, kernel[s]);
  }
  node = make_computation(v.name, v.op_type, {X}, {Y}, {AffineMap(dims, xr), AffineMap(dims, yr)});
  node.window_extents = windows;
  node.dim_names = names;
  validate(node);
  return {std::move(node)};
}

std::vector<Node> parse_global_pool(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (X->rank() < 3 || Y->rank() != X->rank()) v.fail("expects (N, C, spatial...) input and output of equal rank", X->name);
  const int n = static_cast<int>(X->rank()) - 2, dims = 2 + 2 * n;
  // Dims (b, c, o..., i...): the unit output axes stay loops so both operands are indexed alone.
  std::vector<E> xr{E::dim(0), E::dim(1)}, yr{E::dim(0), E::dim(1)};
  std::vector<std::string> names{"b", "c"};
  for (int s = 0; s < n; ++s) names.push_back("o" + std::to_string(s));
  for (int s = 0; s < n; ++s) names.push_back("i" + std::to_string(s));
  for (int s = 0; s < n; ++s) {
    yr.push_back(E::dim(2 + s));
    xr.push_back(E::dim(2 + n + s));
  }
  auto node = make_computation(v.name, v.op_type, {X}, {Y}, {AffineMap(dims, xr), AffineMap(dims, yr)});
  node.dim_names = names;
  return {std::move(node)};
}

// LRN: each output channel sums squares over a window of `size` channels centred on it.
std::vector<Node> parse_lrn(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  const auto size = v.attr_int("size", 0);
  if (size < 1) v.fail("attribute 'size' must be >= 1");
  if (X->rank() < 2) v.fail("expects an (N, C, ...) input", X->name);
  const int r = static_cast<int>(X->rank()), f = r;
  std::vector<E> xr;
  for (int a = 0; a < r; ++a) xr.push_back(a == 1 ? E::dim(1) + E::dim(f) - (size - 1) / 2 : E::dim(a));
  std::vector<E> yr;
  for (int a = 0; a < r; ++a) yr.push_back(E::dim(a));
  auto node = make_computation(v.name, "LRN", {X}, {Y}, {AffineMap(r + 1, xr), AffineMap(r + 1, yr)});
  node.window_extents = {{f, size}};
  validate(node);
  return {std::move(node)};
}

}  // namespace

void add_pooling_parsers(std::vector<ParserEntry>& out) {
  out.emplace_back("MaxPool", parse_pool);
  out.emplace_back("AveragePool", parse_pool);
  out.emplace_back("LpPool", parse_pool);
  out.emplace_back("GlobalAveragePool", parse_global_pool);
  out.emplace_back("GlobalMaxPool", parse_global_pool);
  out.emplace_back("GlobalLpPool", parse_global_pool);
  out.emplace_back("LRN", parse_lrn);
}

}  // namespace stream::onnx_frontend
