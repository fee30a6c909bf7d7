// How deep YAML text nests, found by a scan of its characters before yaml-cpp reads it. yaml-cpp
// turns a whole flow collection into tokens before it builds a node, about 140 bytes a bracket
// (100 MB of `[` peaked at 11.8 GB), and recurses once a level while it builds; io::parse_json_bounded
// bounds JSON the same way. The scan counts flow collections (`[`, `{`) and block levels (a line
// indented deeper than the open ones, and a `- ` or `? ` or key that opens a node further right on
// its line), outside quoted scalars, comments and block scalars, and stops at the first level past
// the bound, in memory bounded by it. Its count is within a factor of two of yaml-cpp's nesting
// (a block sequence at its parent key's indentation adds no column; a scalar after `key: ` counts
// one level), far from any bound a real file comes near.
#pragma once

#include <optional>
#include <string_view>

#include "stream/export.hpp"

namespace stream::yamlx {

/// The most levels any YAML input may nest (hardware, mapping, sweep and run files nest under 10).
/// yaml-cpp 0.7 itself stops near 498 levels (its recursion guard of 2,000 frames), with the
/// message "bad file"; 200 keeps twice the scan's count below that, so every file too deep gets
/// this bound's message.
inline constexpr int kMaxYamlDepth = 200;

/// Where the text first nests deeper than `max_depth` (1-based line and column), if it does.
struct DeepNesting {
  int line = 0;
  int column = 0;
};

[[nodiscard]] STREAM_API std::optional<DeepNesting> find_deep_nesting(std::string_view text, int max_depth = kMaxYamlDepth);

}  // namespace stream::yamlx
