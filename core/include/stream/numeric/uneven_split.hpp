// Cutting a dimension into parts when the cut does not divide it (docs/pipeline.md, "A
// dimension the split does not divide").
//
// A dim of `size` elements cut into chunks of at most `chunk` becomes parts = ceil(size / chunk)
// parts of ceil(size / parts) elements, the last one shorter: the parts are balanced, so no part is
// longer than the chunk asked for and the parts together overshoot the size by less than one
// element per part. Every figure is costed on the longest part. When the chunk divides the size
// this is the exact split (size / chunk parts of chunk), so a dividing mapping's figures stay the
// same.
#pragma once

#include <algorithm>
#include <cstdint>

namespace stream::numeric {

/// ceil(a / b) for a >= 0 and b >= 1 (b below 1: a): the longest of b balanced parts of a.
[[nodiscard]] inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

struct UnevenSplit {
  std::int64_t parts = 1;    ///< how many parts
  std::int64_t longest = 0;  ///< elements of the longest part (every part but the last)
};

/// `size` cut into parts of at most `chunk` (a chunk below 1 counts as 1), balanced.
[[nodiscard]] inline UnevenSplit uneven_split(std::int64_t size, std::int64_t chunk) {
  const std::int64_t parts = std::max<std::int64_t>(1, ceil_div(size, std::max<std::int64_t>(chunk, 1)));
  return {parts, ceil_div(size, parts)};
}

}  // namespace stream::numeric
