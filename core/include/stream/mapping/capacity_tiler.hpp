// The capacity tiler's greedy search (spec §3.2 step 3, the reference's capacity tiler), on dense
// ids: dims, tensors and cores are numbered by the caller, so the search reads arrays only.
//
// A core's usage is the sum, over the tensors it holds in list order, of the tensor's per-core bits
// times its resident fraction; the fraction is the product over the tensor's axes of the widest
// accessor's share, an accessor's share being the product of resident/per-core over its dims.
// Each step tries every dim at its next smaller divisor (within the steady-state tile cap) and
// keeps the one that most lowers the worst overflow (usage - fill x capacity over the cores; the
// first dim on ties) until nothing overflows. A step is incremental: a trial re-scores only the
// tensors the tried dim indexes and the cores that hold them, and the sums a trial cannot win with
// (bounded by a rounding-error margin) are never re-added; the sums that are re-added follow the
// list order, so every figure is the one a full re-evaluation gives.
//
// Beyond the reference (CapacityProblem::by_tile_cost_past_cap; the pipeline's memory fallback sets
// it for a group it cannot cut): when that greedy reaches the tile cap with a core still over (its myopic
// first steps can spend the cap on a prime dim cut to 1, e.g. 197 tokens, leaving a weight tile
// too large), the search runs again from the starting tiles taking at each step the dim that
// lowers the worst overflow most per factor of tiles it costs; that answer is kept when it fits.
// Where the reference's greedy fits, nothing changes.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "stream/export.hpp"

namespace stream::mapping {

struct CapacityProblem {
  std::vector<std::int64_t> per_core;  ///< per dim: its extent on one core
  std::vector<std::int64_t> resident;  ///< per dim: the starting resident tile, in [1, per_core]
  /// Per tensor, per axis, per accessor: the dims (ascending) whose shares multiply.
  std::vector<std::vector<std::vector<std::vector<int>>>> axes;
  struct Core {
    double budget = 0;  ///< fill fraction x memory capacity, in bits
    std::vector<std::pair<int, double>> tensors;  ///< (tensor, per-core bits), in list order
  };
  std::vector<Core> cores;
  std::int64_t max_tiles = 1024;
  /// Beyond the reference: past the cap, search again by tile cost (below). Off: the reference's rule.
  bool by_tile_cost_past_cap = false;
  /// The reference's rule (`--compat stream-1.13`): a step is taken only when it lowers the worst
  /// overflow strictly; otherwise the search stops (reported as tile_cap_reached).
  bool strict_descent = false;
};

struct CapacityResult {
  std::vector<std::int64_t> resident;  ///< per dim
  bool fitted_at_start = false;        ///< nothing overflowed with the starting tiles
  bool tile_cap_reached = false;       ///< stopped by the tile cap with a core still overflowing
  bool by_tile_cost = false;           ///< the reference's rule reached the cap; the per-tile rule fits
};

[[nodiscard]] STREAM_API CapacityResult refine_capacity(const CapacityProblem& problem);

}  // namespace stream::mapping
