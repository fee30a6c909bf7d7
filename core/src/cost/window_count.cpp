#include "stream/cost/window_count.hpp"

#include <algorithm>
#include <utility>

namespace stream::cost {

namespace {

__extension__ typedef __int128 i128;  // products of two int64 extents, exactly

i128 floor_div(i128 x, i128 y) {  // y > 0
  const i128 q = x / y;
  return (x % y != 0 && x < 0) ? q - 1 : q;
}
i128 ceil_div(i128 x, i128 y) { return -floor_div(-x, y); }
i128 gcd(i128 x, i128 y) {
  while (y != 0) x = std::exchange(y, x % y);
  return x;
}

// Within one residue class the positions are t = i + period * kk (0 <= i < length, 0 <= kk <
// count): how many distinct t are <= T.
i128 class_positions_up_to(i128 T, i128 period, i128 length, i128 count) {
  if (T < 0) return 0;
  if (length >= period) return std::min(T + 1, (count - 1) * period + length);  // the runs overlap
  const i128 q = T / period, r = T % period;
  return std::min(q, count) * length + (q < count ? std::min(r + 1, length) : 0);
}

// w = a*i + b*j with gcd(a, b) = 1, grouped by j mod a: the class of j0 holds
// w = b*j0 + a*t, t in the runs [b*kk, b*kk + n1) for the m values j0 + a*kk < n2.
i128 count_by_classes(i128 a, i128 n1, i128 b, i128 n2, i128 w0, i128 w1) {
  i128 total = 0;
  for (i128 j0 = 0; j0 < std::min(a, n2); ++j0) {
    const i128 m = (n2 - 1 - j0) / a + 1;
    const i128 r0 = b * j0;
    const i128 t0 = ceil_div(w0 - r0, a), t1 = floor_div(w1 - r0, a);
    if (t1 < t0) continue;
    total += class_positions_up_to(t1, b, n1, m) - class_positions_up_to(t0 - 1, b, n1, m);
  }
  return total;
}

}  // namespace

std::int64_t distinct_window_indices(std::int64_t c1, std::int64_t n1, std::int64_t c2, std::int64_t n2, std::int64_t k,
                                     std::int64_t extent) {
  if (n1 <= 0 || n2 <= 0 || extent <= 0) return 0;
  i128 a = c1, b = c2, base = k, ni = n1, nj = n2;
  // A negative coefficient walks the same positions from the other end.
  if (a < 0) base += a * (ni - 1), a = -a;
  if (b < 0) base += b * (nj - 1), b = -b;
  if (a == 0) a = 1, ni = 1;  // a term that does not move reads one position
  if (b == 0) b = 1, nj = 1;
  const i128 g = gcd(a, b);
  a /= g;
  b /= g;
  // x = base + g * w must lie in [0, extent): w in [w0, w1].
  const i128 w0 = ceil_div(-base, g), w1 = floor_div(static_cast<i128>(extent) - 1 - base, g);
  const i128 lo = std::max<i128>(w0, 0), hi = std::min<i128>(w1, a * (ni - 1) + b * (nj - 1));
  if (hi < lo) return 0;
  const i128 classes = std::min(std::min(a, nj), std::min(b, ni));
  if (classes > kWindowClassLimit) return static_cast<std::int64_t>(std::min(hi - lo + 1, ni * nj));
  // Walk the fewer classes: by j mod a, or (swapping the terms) by i mod b.
  const i128 count = std::min(a, nj) <= std::min(b, ni) ? count_by_classes(a, ni, b, nj, lo, hi)
                                                        : count_by_classes(b, nj, a, ni, lo, hi);
  return static_cast<std::int64_t>(count);
}

}  // namespace stream::cost
