// Ticks of a time axis: round numbers (1, 2 or 5 times a power of ten) from 0 to the end, about
// as many as asked for, so a reader can tell the cycle of any bar.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace stream::report::detail {

/// The tick step for an axis of length `span` with about `wanted` intervals.
inline double tick_step(double span, int wanted) {
  if (span <= 0 || wanted <= 0) return 1;
  const double raw = span / wanted;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return std::max(1.0, m * p);
  return std::max(1.0, 10 * p);
}

/// 0, step, 2 step, ... up to `span` (included when it is a multiple).
inline std::vector<double> axis_ticks(double span, int wanted) {
  const double step = tick_step(span, wanted);
  std::vector<double> out;
  for (int i = 0; i * step <= span + 1e-9; ++i) out.push_back(i * step);
  return out;
}

/// A tick's label: the integer cycle count.
inline std::string tick_text(double t) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", t);
  return b;
}

}  // namespace stream::report::detail
