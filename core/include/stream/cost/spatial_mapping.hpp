// Spatial mapping: which layer dims are unrolled over which operational-array dims.
//
// Generation follows ZigZag's SpatialMappingGeneratorStage as Stream drives it: maximal unrolling
// min(layer size, array size) limited by the bandwidth of the inner memories; the core's
// `dataflows` as a template; missing array dims filled with one layer dim each (every divisor of
// its maximal unrolling, largest first, layer dims in the CPython set order of the hint); the
// candidate with the highest performance indicator wins, the first in generation order on a tie;
// then the inner-memory capacity limit. Conversion gives, per layer operand and architecture
// level, the spatial loops in the fractional (energy) and integer (latency) versions, with the
// derived instance counts and bandwidth boosts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/cost/core_model.hpp"
#include "stream/cost/layer.hpp"
#include "stream/cost/small_vec.hpp"
#include "stream/export.hpp"

namespace stream::cost {

/// Per array dim, the (layer dim, unroll factor) pairs.
struct SpatialMapping {
  std::vector<std::vector<std::pair<int, std::int64_t>>> per_oa;
  [[nodiscard]] std::string str(const CoreModel& core) const;
};

struct SpatialLoop {
  int dim = 0;
  double size = 1;
};

/// One operand's spatial loops per architecture level a = 0..n (n = its memory levels).
/// Fixed-size storage: built once per estimate, read on every ordering.
struct OperandSpatial {
  static constexpr std::size_t kMaxArch = 16;  ///< memory levels + 1
  static constexpr std::size_t kMaxLoops = 12; ///< spatial loops at one level
  SmallVec<SmallVec<SpatialLoop, kMaxLoops>, kMaxArch> loops;  ///< a = 0..n
  SmallVec<double, kMaxArch> unit_count;    ///< a = 0..n: round(prod of all unrolls at a..n)
  SmallVec<double, kMaxArch> unit_unique;   ///< a = 0..n: prod of relevant unrolls at a..n
  SmallVec<double, kMaxArch> mem_bw_boost;  ///< a = 0..n (the last is 1)
};

/// The CPython iteration order of set(D0..D{n-1}) (ZigZag's default spatial hint).
STREAM_API const std::vector<int>& hint_set_order(int n_dims);

/// Generates the spatial mapping Stream keeps (nb_mappings_generated = 1). `memop_of_op[i]` is
/// the memory operand linked to layer operand i. Throws std::runtime_error if none is valid.
SpatialMapping generate_spatial_mapping(const Layer& layer, const CoreModel& core, const std::vector<int>& memop_of_op);

/// ZigZag's spatial_mapping_conversion for one layer operand; `integer` selects the int version.
STREAM_API OperandSpatial convert_spatial_mapping(const Layer& layer, const CoreModel& core, const SpatialMapping& sm, int op,
                                                  int memop, bool integer);

}  // namespace stream::cost
