// Valid UTF-8 for every file and stream the tool writes. Names come from the models as raw bytes
// (ONNX strings are proto2 `string` fields: nothing checks their encoding) and file names from
// the command line; a JSON, YAML or SVG reader rejects bytes that are not UTF-8, and
// nlohmann::json::dump throws on them (type_error 316). Every writer therefore replaces each byte
// that does not start a well-formed sequence by U+FFFD, the replacement character (the same
// policy as nlohmann's error_handler_t::replace), instead of failing or writing an unreadable file.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "stream/export.hpp"

namespace stream::io {

/// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
[[nodiscard]] STREAM_API bool is_valid_utf8(std::string_view text);

/// `text` with every byte that does not begin a well-formed sequence replaced by U+FFFD.
[[nodiscard]] STREAM_API std::string to_valid_utf8(std::string_view text);

/// The JSON writers' indentation and error handling in one place: `dump(indent)` that replaces
/// ill-formed UTF-8 as to_valid_utf8 does instead of throwing.
template <class Json>
[[nodiscard]] std::string dump_json(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace stream::io
