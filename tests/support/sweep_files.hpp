// What the sweep fault tests check in a sweep's --out after a kill: the rows of results.jsonl (a
// last line cut short by the kill is no row), and whether a final file is there whole. Header-only.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace stream::test {

/// The rows of a results.jsonl that a killed sweep may have left, each without `wall_s`; a line
/// that does not parse (cut short) is left out.
inline std::vector<nlohmann::json> surviving_rows(const std::filesystem::path& results_jsonl) {
  std::vector<nlohmann::json> out;
  std::ifstream in(results_jsonl);
  for (std::string line; std::getline(in, line);) {
    auto row = nlohmann::json::parse(line, nullptr, false);
    if (row.is_discarded() || !row.is_object()) continue;
    row.erase("wall_s");
    out.push_back(std::move(row));
  }
  return out;
}

/// A CSV without its last column (the sweep's `wall_s`, the one figure that differs between runs).
inline std::string without_last_column(const std::string& csv) {
  std::string out;
  std::size_t from = 0;
  while (from < csv.size()) {
    const auto end = csv.find('\n', from);
    const std::string line = csv.substr(from, end == std::string::npos ? std::string::npos : end - from);
    out += line.substr(0, line.rfind(',')) + "\n";
    if (end == std::string::npos) break;
    from = end + 1;
  }
  return out;
}

}  // namespace stream::test
