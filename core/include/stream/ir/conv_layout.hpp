// The loop layout and affine maps of an N-d convolution, shared by every frontend.
//
// Loops: b, the output loops (last spatial axis first: ox, oy, oz, ...), the kernel loops
// (fx, fy, fz, ...), c, k, and g when the convolution is grouped. Input X[b, g*C/G + c, o*s + f*d - p],
// weight W[g*K/G + k, c, f], output Y[b, g*K/G + k, o]; with one channel per group (depthwise) the
// group loop indexes the channel alone. Frontends add node-level facts (window extents) themselves.
//
// With split_groups the maps index tensors whose channel axis is split into (G, channels/G) where
// channels/G > 1: X[b, g, c, ...], W[g, k, c, f], Y[b, g, k, o]. The frontend reshapes to and from
// those views; layout folding then refines the neighbours' channel loops into (g, c), so that a
// producer or consumer and the convolution share bare channel loops. A composite index g*K/G + k
// relates to a consumer's single channel loop by no identity relation, so the two would be
// unified (dimensions.hpp) and tiled independently, which breaks tiles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/ir/affine_map.hpp"

namespace stream {

struct ConvLayout {
  int dims = 0;
  int c = 0, k = 0, g = -1;  ///< g is -1 when not grouped
  std::vector<int> o, f;     ///< output and kernel loop of spatial axis s
  std::vector<std::string> names;
  AffineMap input, weight, output;
};

/// strides, dilations and begin pads have one entry per spatial axis.
inline ConvLayout conv_layout(std::int64_t channels, std::int64_t kernels, std::int64_t groups,
                              const std::vector<std::int64_t>& strides, const std::vector<std::int64_t>& dilations,
                              const std::vector<std::int64_t>& pads, bool split_groups = false) {
  using E = AffineExpr;
  const auto n = strides.size();
  const int ni = static_cast<int>(n);
  ConvLayout l;
  l.c = 1 + 2 * ni;
  l.k = l.c + 1;
  if (groups > 1) l.g = l.k + 1;
  l.dims = (groups > 1 ? l.g : l.k) + 1;
  l.names.assign(static_cast<std::size_t>(l.dims), "");
  l.names[0] = "b";
  const std::vector<std::string> spatial{"x", "y", "z"};
  for (std::size_t s = 0; s < n; ++s) {
    const auto from_last = n - 1 - s;
    l.o.push_back(1 + static_cast<int>(from_last));
    l.f.push_back(1 + ni + static_cast<int>(from_last));
    const auto suffix = from_last < 3 ? spatial[from_last] : std::to_string(s);
    l.names[static_cast<std::size_t>(l.o[s])] = "o" + suffix;
    l.names[static_cast<std::size_t>(l.f[s])] = "f" + suffix;
  }
  l.names[static_cast<std::size_t>(l.c)] = "c";
  l.names[static_cast<std::size_t>(l.k)] = "k";
  if (groups > 1) l.names[static_cast<std::size_t>(l.g)] = "g";
  // The index results of a channel axis (two when split into (g, inner)).
  auto channel = [&](int inner, std::int64_t total) -> std::vector<E> {
    if (groups <= 1) return {E::dim(inner)};
    if (total / groups == 1) return {E::dim(l.g)};
    if (split_groups) return {E::dim(l.g), E::dim(inner)};
    return {E::dim(l.g) * (total / groups) + E::dim(inner)};
  };
  std::vector<E> xr{E::dim(0)}, wr = channel(l.k, kernels), yr{E::dim(0)};
  for (const auto& e : channel(l.c, channels)) xr.push_back(e);
  wr.push_back(E::dim(l.c));
  for (const auto& e : channel(l.k, kernels)) yr.push_back(e);
  for (std::size_t s = 0; s < n; ++s) {
    xr.push_back(E::dim(l.o[s]) * strides[s] + E::dim(l.f[s]) * dilations[s] - pads[s]);
    wr.push_back(E::dim(l.f[s]));
    yr.push_back(E::dim(l.o[s]));
  }
  l.input = AffineMap(l.dims, std::move(xr));
  l.weight = AffineMap(l.dims, std::move(wr));
  l.output = AffineMap(l.dims, std::move(yr));
  return l;
}

}  // namespace stream
