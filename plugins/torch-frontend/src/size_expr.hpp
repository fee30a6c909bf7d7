// The symbolic sizes of an ExportedProgram: sympy-printed integer expressions over the program's
// symbols (s0 + 1, 2*s1, Max(s0, 4), FloorDiv, Mod, Pow, ...), evaluated with checked arithmetic;
// a power is computed by squaring, so a huge exponent costs a few steps, not a loop per unit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace stream::torch_frontend::detail {

/// A symbol the lookup does not know (thrown by the lookup).
struct UnknownSymbol {
  std::string name;
};
/// Not an expression of the supported form, or a result beyond int64.
struct BadExpr {};

/// The value of `text` with each symbol's value from `lookup`; throws BadExpr or UnknownSymbol.
[[nodiscard]] std::int64_t evaluate_size(const std::string& text, const std::function<std::int64_t(const std::string&)>& lookup);

/// The symbol an expression that is exactly one symbol names (`s0`, `Symbol('s0')`), or "".
[[nodiscard]] std::string lone_symbol(const std::string& text);

}  // namespace stream::torch_frontend::detail
