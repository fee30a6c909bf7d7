// Checked 64-bit arithmetic on sizes and counts.
//
// Tensor sizes, iteration-space sizes (MAC counts), tile counts and bit sizes are products of
// extents that come from input files. A product that wraps past INT64_MAX turns into a negative or
// small number that flows into latency and energy as a believable figure, so every such product
// goes through these helpers: on overflow they throw stream::Error with `what` (which names the
// tensor, node or mapping entry) and the operands. Extents are non-negative by construction (a
// negative one is rejected where it is read), so only the upper bound is checked.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "stream/error.hpp"

namespace stream {

// `what` is a string, or a callable returning one (so that hot paths build the text only on failure).
template <typename What>
[[noreturn]] void fail_overflow(const What& what, std::int64_t a, std::int64_t b, const char* op) {
  std::string where;
  if constexpr (std::is_invocable_v<const What&>) where = what();
  else where = what;
  throw Error(where + ": " + std::to_string(a) + " " + op + " " + std::to_string(b) +
              " does not fit in 64 bits (sizes and counts must stay below 2^63)");
}

/// a * b, or stream::Error naming `what` when the product does not fit in int64.
template <typename What>
[[nodiscard]] std::int64_t checked_mul(std::int64_t a, std::int64_t b, const What& what) {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) fail_overflow(what, a, b, "x");
  return out;
}

/// a + b, or stream::Error naming `what` when the sum does not fit in int64.
template <typename What>
[[nodiscard]] std::int64_t checked_add(std::int64_t a, std::int64_t b, const What& what) {
  std::int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) fail_overflow(what, a, b, "+");
  return out;
}

/// The product of every element of `values` (1 when empty), checked as checked_mul.
template <typename Range, typename What>
[[nodiscard]] std::int64_t checked_product(const Range& values, const What& what) {
  std::int64_t out = 1;
  for (auto v : values) out = checked_mul(out, static_cast<std::int64_t>(v), what);
  return out;
}

}  // namespace stream
