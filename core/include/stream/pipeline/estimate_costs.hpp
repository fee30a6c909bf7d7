// The (compute node, core) cost table of a tiled group (spec §4.4).
//
// For every compute node and every core of its group: build the per-core tile (tiled loop sizes
// divided by the node's inter-core split where it divides; output operand first, then inputs;
// tensor shapes of the tiled workload) and run the per-core cost model. Identical (tile, core)
// pairs are costed once: cores are keyed by their performance representative, tiles by their
// full description, exactly the reference's node_key + has_same_performance dedup. Distinct
// pairs run on `threads` threads; the result does not depend on the thread count. A node the cost
// model cannot cost gets the reference's ideal-cycle fallback (backend "ideal-cycle") with the
// reason in words and the model's own text, widened by the operand widths when memory fit failed,
// as its detail (cost/fallback_reason.hpp, report/cost_fallbacks.hpp), and the traffic model's
// energy (cost/traffic_model.hpp) where the reference has 0 pJ; under the `full` cost profile its
// latency is also at least the traffic model's port cycles.
// A core claimed by a registered cost backend (the AIE backend) is costed by it instead; its
// request joins the dedup key. With a CostCache the dedup spans groups, runs and accelerators:
// cores are then keyed by their performance class in the cache (same_performance, claimed by the
// same backend), so a run whose groups repeat the same layers (a stack of identical blocks, a
// fused group cut per layer), and a sweep's points whose cores perform alike, cost each pair once.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "stream/cost/cost_model.hpp"
#include "stream/cost/tile.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/registry/cost_backends.hpp"
#include "stream/cost/cost_table.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::pipeline {

/// Cost entries by dedup key (tile, backend request) and performance class, without the per-use
/// core id and type; shared by the groups and fallback attempts of a run, and by runs (RunCache).
/// Not thread-safe.
class STREAM_API CostCache {
 public:
  /// The class of cores that perform as `core` does (Core::same_performance) when the backend
  /// named `backend` ("" for the built-in model) costs them; a new class when none does.
  [[nodiscard]] int performance_class(const hardware::Core& core, const std::string& backend);
  [[nodiscard]] const cost::CostEntry* find(const std::pair<std::string, int>& key) const;
  void add(std::pair<std::string, int> key, const cost::CostEntry& entry);
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  /// Drops everything (entries and classes) once past kMaxEntries or kMaxClasses, so that a long
  /// sweep over many distinct tiles or cores keeps its memory flat. Between runs only: a class id
  /// a run holds must keep its meaning to its end.
  void trim();
  static constexpr std::size_t kMaxEntries = 100000, kMaxClasses = 256;

 private:
  std::map<std::pair<std::string, int>, cost::CostEntry> entries_;
  std::vector<std::pair<std::string, hardware::Core>> classes_;
};

/// Which latency an ideal-cycle estimate gets (docs/cost-model.md, "Cost profiles"): Reference
/// keeps the reference's rule, so that its goldens hold; Full bounds it below by the traffic
/// model's port cycles as well. The energy is the traffic model's in both.
enum class CostProfile { Reference, Full };
[[nodiscard]] STREAM_API const char* name(CostProfile profile);  ///< "reference", "full"
/// "reference" or "full"; anything else throws a stream::Error (bad input) naming `where`.
[[nodiscard]] STREAM_API CostProfile parse_cost_profile(const std::string& text, const std::string& where);

struct CostEstimateOptions {
  int threads = 1;
  int lpf_limit = cost::kDefaultLpfLimit;
  /// Per-core cost backends in registration order (Registries::cost_backend_list()); each core
  /// goes to the claiming backend of highest priority, else to the built-in ZigZag-equivalent
  /// model (registry/cost_backends.hpp). Empty: the built-in model costs every core.
  std::vector<CostBackend> backends;
  CostCache* cache = nullptr;  ///< read and filled when set
  /// Applied to the entries as they leave; the cache holds them under the reference profile, so
  /// that runs of either profile share it.
  CostProfile profile = CostProfile::Reference;
};

/// The per-core tile of node `node_index` of the tiled group.
[[nodiscard]] STREAM_API cost::Tile core_tile(const tiling::TiledGroup& tiled, std::size_t node_index);

[[nodiscard]] STREAM_API cost::CostTable estimate_costs(const tiling::TiledGroup& tiled,
                                                          const hardware::Accelerator& accelerator,
                                                          const CostEstimateOptions& options = {});

}  // namespace stream::pipeline
