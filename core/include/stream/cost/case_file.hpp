// Reading cost-model case files (the oracle format, reference/oracle/FORMAT.md).
//
// A case is one tile (`layer`) on one core (by base file name) with what the reference produced
// (`expected`). The reader keeps only what the cost model needs and what a comparison checks.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "stream/cost/tile.hpp"

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

/// Throws stream::Error naming the file and case on malformed input.
std::vector<CostCase> read_cost_cases(const std::filesystem::path& path);

}  // namespace stream::cost
