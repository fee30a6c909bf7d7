// The cost table's shared cache (estimate_costs.hpp): cost entries by dedup key and performance
// class, so that identical (tile, core) pairs are costed once across the groups and fallback
// attempts of a run, and across runs (pipeline::RunCache: a sweep's points whose cores perform
// alike, a stack of identical blocks).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "stream/cost/cost_table.hpp"
#include "stream/export.hpp"
#include "stream/hardware/core.hpp"

namespace stream::cost {

/// Cost entries by dedup key (tile, backend request) and performance class, without the per-use
/// core id and type. Not thread-safe.
class STREAM_API CostCache {
 public:
  /// The class of cores that perform as `core` does (Core::same_performance) when the backend
  /// named `backend` ("" for the built-in model) costs them; a new class when none does.
  [[nodiscard]] int performance_class(const hardware::Core& core, const std::string& backend);
  [[nodiscard]] const CostEntry* find(const std::pair<std::string, int>& key) const;
  void add(std::pair<std::string, int> key, const CostEntry& entry);
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  /// Drops everything (entries and classes) once past kMaxEntries or kMaxClasses, so that a long
  /// sweep over many distinct tiles or cores keeps its memory flat. Between runs only: a class id
  /// a run holds must keep its meaning to its end.
  void trim();
  static constexpr std::size_t kMaxEntries = 100000, kMaxClasses = 256;

 private:
  std::map<std::pair<std::string, int>, CostEntry> entries_;
  std::vector<std::pair<std::string, hardware::Core>> classes_;
};

}  // namespace stream::cost
