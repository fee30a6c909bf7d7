// The reference's rounding rules, in one place.
//
// The figures Stream must reproduce come from Python, whose round() on a float rounds half to even
// (banker's rounding) and whose // on floats takes the floor of the quotient (cost-model-spec §3.0,
// pipeline-spec "Rounding"). std::round rounds half away from zero and would move 0.5, 2.5, ... by
// one, so every place that mirrors a Python round() or // goes through these helpers instead.
// std::nearbyint honours the current floating-point rounding mode; nothing in Stream changes it
// from the default round-to-nearest-even.
#pragma once

#include <cmath>
#include <cstdint>

namespace stream::numeric {

/// Python's round(x) for a float: the nearest integer, a tie going to the even one (0.5 -> 0,
/// 1.5 -> 2, -2.5 -> -2), kept as a double.
[[nodiscard]] inline double round_half_even(double x) { return std::nearbyint(x); }

/// Python's int(round(x)) (pipeline-spec §9's active latency): round_half_even as an integer.
[[nodiscard]] inline std::int64_t round_half_even_int(double x) { return static_cast<std::int64_t>(std::nearbyint(x)); }

/// Python's a // b on floats: the floor of the quotient (-7 // 2 == -4).
[[nodiscard]] inline double floor_div(double a, double b) { return std::floor(a / b); }

}  // namespace stream::numeric
