// Reading what `stream run` wrote, for the tests that check results across models: the summary
// as JSON and, from every group's core_cost_lut.yaml, how many (node, core) costs of given op
// types came from the per-core model. Header-only; needs yaml-cpp and nlohmann_json.
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "stream_cli.hpp"

namespace stream::test {

/// summary.json of an experiment directory (null when missing).
inline nlohmann::json summary_of(const std::filesystem::path& experiment) {
  const auto p = experiment / "summary.json";
  return std::filesystem::exists(p) ? nlohmann::json::parse(read(p)) : nlohmann::json();
}

struct BackendCount {
  std::size_t model = 0;  ///< backend zigzag
  std::size_t total = 0;
  [[nodiscard]] double share() const { return total == 0 ? 1.0 : static_cast<double>(model) / static_cast<double>(total); }
};

/// Over every group_<i>/core_cost_lut.yaml: the cost entries of nodes whose type is in `types`
/// (every node when empty).
inline BackendCount backend_count(const std::filesystem::path& experiment, const std::set<std::string>& types = {}) {
  BackendCount c;
  for (int g = 0;; ++g) {
    const auto lut = experiment / ("group_" + std::to_string(g)) / "core_cost_lut.yaml";
    if (!std::filesystem::exists(lut)) break;
    for (const auto& node : YAML::LoadFile(lut.string())["nodes"]) {
      if (!types.empty() && types.count(node["type"].as<std::string>()) == 0) continue;
      for (const auto& core : node["cores"]) {
        ++c.total;
        if (core["metadata"]["backend"].as<std::string>() == "zigzag") ++c.model;
      }
    }
  }
  return c;
}

}  // namespace stream::test
