// "Did you mean": the known name nearest to a misspelt one (`cuont` for `count`, `hardwar` for
// `hardware`), by edit distance (insertions, deletions, substitutions), when it is close enough to
// be a likely typo. Used where an input names something that does not exist: a sweep's override
// path, an MCP tool's argument.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace stream {

/// Edits between two names (Levenshtein distance, one row of the table at a time).
[[nodiscard]] inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// The first of `known` nearest to `name`, when at most `max_edits` away; none otherwise.
[[nodiscard]] inline std::optional<std::string> nearest_name(const std::string& name, const std::vector<std::string>& known,
                                                             std::size_t max_edits = 2) {
  std::optional<std::string> best;
  std::size_t best_edits = max_edits + 1;
  for (const auto& k : known)
    if (const auto d = edit_distance(name, k); d < best_edits) {
      best_edits = d;
      best = k;
    }
  return best;
}

}  // namespace stream
