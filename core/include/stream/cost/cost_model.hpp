// The per-core cost model: one tile on one core -> latency, energy and the chosen mapping.
//
// Reproduces Stream's ZigZag estimator (ZigZag 3.8.5, spec cost-model-spec.md): build the layer,
// link inputs to I1, I2 and the output to O, generate the spatial mapping, search every LOMA loop
// ordering that fits the memories, cost each one, keep the minimal latency_total2 (then minimal
// energy, then the first found), and re-evaluate it with the operator's cycles per op. Any
// failure ZigZag would raise gives Stream's ideal-cycle fallback (energy 0), flagged as such; a
// node Stream cannot even describe gives status StreamError.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/cost/core_model.hpp"
#include "stream/cost/evaluation.hpp"
#include "stream/cost/spatial_mapping.hpp"
#include "stream/cost/tile.hpp"
#include "stream/export.hpp"

namespace stream::cost {

/// The loop-prime-factor limit of the temporal mapping search (LOMA) that Stream's runs use.
inline constexpr int kDefaultLpfLimit = 6;

struct CostOptions {
  int lpf_limit = kDefaultLpfLimit;
  /// Wall-clock budget for the temporal search in seconds (<= 0: none). When it runs out, the
  /// best mapping found so far is kept and CoreCost::search_cut is set.
  double time_budget_s = 0;
  /// EVEN temporal mappings instead of UNEVEN (Stream's default).
  bool even_mapping = false;
  /// Keep the per-level breakdowns and the chosen mappings in the result.
  bool detail = true;
};

enum class CostStatus { Ok, Fallback, StreamError };
STREAM_API const char* status_name(CostStatus s);

struct CoreCost {
  CostStatus status = CostStatus::Ok;
  std::string reason;  ///< why it fell back / could not be built
  double latency_total = 0;  ///< latency_total2 (the fallback's ideal cycles on fallback)
  double energy_total = 0;
  double ideal_cycle = 0;
  double ideal_temporal_cycle = 0;
  double mac_spatial_utilization = 0;
  int cycles_per_op = 1;
  MappingCost best;  ///< the chosen mapping's cost (status Ok)
  /// Per core memory (CoreModel::mems order): the bits one instance holds under the chosen
  /// mapping (status Ok; pipeline/memory_use.hpp).
  std::vector<double> memory_bits;
  SpatialMapping spatial_mapping;
  std::string spatial_mapping_text;
  /// Stationarity-merged temporal mapping: per layer operand, per memory level, (dim, size) loops.
  std::vector<std::vector<std::vector<TemporalLoop>>> temporal_mapping;
  std::vector<std::string> operand_names;
  std::uint64_t orderings_total = 0;      ///< distinct loop orderings of the LPFs
  std::uint64_t orderings_visited = 0;    ///< orderings tried before the search ended
  std::uint64_t orderings_evaluated = 0;  ///< orderings that fit and were costed
  bool search_cut = false;                ///< the time budget ended the search early
};

/// Cycles per operation of an op type as the fallback computes it (lower-cased match).
int fallback_cycles_per_op(const std::string& op_type);

STREAM_API CoreCost estimate(const Tile& tile, const CoreModel& core, const CostOptions& options = {});

}  // namespace stream::cost
