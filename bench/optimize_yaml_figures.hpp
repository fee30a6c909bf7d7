// The three figures bench_mapping_optimize reports from a run's optimize.yaml: the automatic
// mapping's latency, the best candidate's and the evaluations spent. The writer
// (core/src/optimize) puts each on one line as a flow mapping (`automatic: {feasible: true,
// latency: 229, ...}`), so a line scan reads them without linking yaml-cpp, which only the core
// links. Anything missing gives nullopt, so that a changed format fails the benchmark instead of
// reporting zeros.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

namespace stream::bench {

struct OptimizeFigures {
  std::int64_t automatic = 0;  ///< cycles
  std::int64_t optimized = 0;  ///< cycles
  std::int64_t evaluations = 0;
};

/// The integer after `field: ` in a one-line flow mapping, if there is one.
inline std::optional<std::int64_t> flow_field(std::string_view line, std::string_view field) {
  const auto key = std::string(field) + ": ";
  for (auto at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
    // A whole key only: preceded by `{` or a space, not the tail of a longer name.
    if (at > 0 && line[at - 1] != '{' && line[at - 1] != ' ') continue;
    try {
      return std::stoll(std::string(line.substr(at + key.size())));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// The figures, or what is missing from the file (the automatic mapping has no latency when it was
/// infeasible: `automatic: {feasible: false, ...}`).
inline std::optional<OptimizeFigures> read_optimize_figures(const std::string& path, std::string& missing) {
  std::ifstream in(path);
  if (!in) {
    missing = "file";
    return std::nullopt;
  }
  std::optional<std::int64_t> automatic, optimized, spent;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("automatic: {")) automatic = flow_field(line, "latency");
    if (line.starts_with("best: {")) optimized = flow_field(line, "latency");
    if (line.starts_with("budget: {")) spent = flow_field(line, "spent");
  }
  if (!automatic) missing = "automatic.latency";
  else if (!optimized) missing = "best.latency";
  else if (!spent) missing = "budget.spent";
  if (!missing.empty()) return std::nullopt;
  return OptimizeFigures{*automatic, *optimized, *spent};
}

}  // namespace stream::bench
