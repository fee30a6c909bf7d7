// Reading JSON that a user, a client or a killed process wrote. nlohmann's parser is iterative,
// but copying and writing a value recurse once per level of nesting: a 200 KB line nested 100,000
// deep then overflows the stack. parse_json_bounded stops at kMaxJsonDepth levels and gives a
// discarded value, as a syntax error does, so the caller's "not JSON" path answers both.
#pragma once

#include <string>

namespace stream::io {

inline constexpr int kMaxJsonDepth = 512;

template <class Json>
[[nodiscard]] Json parse_json_bounded(const std::string& text, int max_depth = kMaxJsonDepth) {
  struct TooDeep {};
  try {
    return Json::parse(
        text,
        [max_depth](int depth, typename Json::parse_event_t, Json&) {
          if (depth > max_depth) throw TooDeep{};
          return true;
        },
        false);
  } catch (const TooDeep&) {
    return Json(Json::value_t::discarded);
  }
}

}  // namespace stream::io
