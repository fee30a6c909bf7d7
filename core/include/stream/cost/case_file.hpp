// Reading cost-model case files (the oracle format, reference/oracle/FORMAT.md).
//
// A case is one tile (`layer`) on one core (by base file name) with what the reference produced
// (`expected`). The reader keeps only what the cost model needs and what a comparison checks.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "stream/cost/cost_model.hpp"
#include "stream/cost/tile.hpp"
#include "stream/export.hpp"

namespace stream::cost {

struct ExpectedCost {
  std::string status;  ///< ok / fallback / stream_error
  double latency_total = 0;
  double energy_total = 0;
  double ideal_cycle = 0;
  double ideal_temporal_cycle = 0;
  double mac_spatial_utilization = 0;
  std::string error;
};

struct CostCase {
  std::string id;
  std::string core;  ///< core file base name
  std::string family;
  Tile tile;
  ExpectedCost expected;
  double reference_seconds = 0;  ///< timing.wall_s_zigzag
};

/// Empty when `got` agrees with `expected` (same status; for ok: latency, ideal and ideal-temporal
/// cycles equal, energy within a relative `energy_rel_tol`); otherwise what differs.
STREAM_API std::string disagreement(const CoreCost& got, const ExpectedCost& expected, double energy_rel_tol = 1e-9);

/// Throws stream::Error naming the file and case on malformed input.
STREAM_API std::vector<CostCase> read_cost_cases(const std::filesystem::path& path);

}  // namespace stream::cost
