// How many input positions a two-term window reads: the distinct values of c1*i + c2*j + k for
// 0 <= i < n1, 0 <= j < n2 that fall inside [0, extent). A convolution's input axis is such a
// window (stride * output position + dilation * kernel position - padding); the cost model needs
// the count, which holes (a stride wider than the kernel's span) make smaller than the span.
//
// The count is computed in closed form per residue class of the coefficients, so its cost does
// not grow with the extents or the padding (enumerating the positions took minutes and gigabytes
// for a 2^31-wide axis, and allocated the whole span, so a 2^40 padding was a bad_alloc).
#pragma once

#include <cstdint>

#include "stream/export.hpp"

namespace stream::cost {

/// Residue classes the exact count walks at most; beyond that (coefficients and extents both in
/// the millions, e.g. a stride of 2^21 over 2^21 outputs) the count is the span clipped to
/// [0, extent) and to n1 * n2, an upper bound that is exact whenever the window has no holes.
inline constexpr std::int64_t kWindowClassLimit = std::int64_t{1} << 20;

[[nodiscard]] STREAM_API std::int64_t distinct_window_indices(std::int64_t c1, std::int64_t n1, std::int64_t c2, std::int64_t n2,
                                                              std::int64_t k, std::int64_t extent);

}  // namespace stream::cost
