// Reading what `stream sweep` wrote: the rows of a results.jsonl, each without `wall_s`, the one
// figure that differs between runs of the same points. Header-only; needs nlohmann_json.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace stream::test {

inline std::vector<nlohmann::json> sweep_rows(const std::filesystem::path& results_jsonl) {
  std::vector<nlohmann::json> out;
  std::ifstream in(results_jsonl);
  for (std::string line; std::getline(in, line);) {
    auto row = nlohmann::json::parse(line);
    row.erase("wall_s");
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace stream::test
