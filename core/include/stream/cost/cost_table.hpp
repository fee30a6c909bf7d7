// The cost table: per compute node of a tiled group, one cost entry per candidate core.
//
// The scheduler only needs, per compute node of a tiled group, the per-core latency of every
// candidate core (it takes the maximum, spec §4.8) and the energy for the system energy figure;
// the remaining fields are carried to core_cost_lut.yaml. Filled by cost::estimate_costs
// from the cost model (the traffic model's energy, and under `--cost-profile full` its latency
// bound, for the ideal-cycle estimates), or by hand in tests.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stream::cost {

struct CostEntry {
  int core_id = -1;
  std::string core_type;  ///< "zigzag.compute", ...
  double latency_total = 0;
  double energy_total = 0;
  double ideal_cycle = 0;
  double ideal_temporal_cycle = 0;
  double mac_spatial_utilization = 0;
  std::string backend = "zigzag";  ///< "zigzag", "ideal-cycle", or a cost backend's name ("aie")
  /// For an "ideal-cycle" entry: why the per-core model did not cost the pair, in words
  /// (cost/fallback_reason.hpp). Empty for "zigzag".
  std::string reason;
  /// For an "ideal-cycle" entry: the model's own text for it (`KeyError: I2`, ...), for debugging.
  std::string detail;
  /// The kernel utilisation (percent) a backend applied, written to the LUT's metadata ("aie").
  std::optional<double> utilization;
  /// Where energy_total comes from when no per-core model gave it: "traffic" for an ideal-cycle
  /// estimate (cost/traffic_model.hpp; the reference gives such a pair 0 pJ). Empty otherwise.
  std::string energy_model;
  /// The traffic model's latency bound (its busiest port's cycles) when energy_model is "traffic".
  double traffic_cycles = 0;
  /// latency_total is traffic_cycles, above the ideal-cycle rule (`--cost-profile full`).
  bool latency_traffic_bound = false;
  /// Per memory of the core (file order): the bits one instance holds under the chosen mapping
  /// ("zigzag" entries; empty otherwise). pipeline/memory_use.hpp.
  std::vector<double> memory_bits;
  /// No ZigZag figures (mac_spatial_utilization is meaningless): the metrics treat the entry as
  /// the reference treats an entry without a cme.
  [[nodiscard]] bool is_estimate() const { return backend != "zigzag"; }
  /// The ideal-cycle fallback: no per-core model costed the pair (report/cost_fallbacks.hpp).
  /// A backend's own model (e.g. "aie") is not a fallback.
  [[nodiscard]] bool is_fallback() const { return backend == "ideal-cycle"; }
};

/// node name -> one entry per candidate core, in core-group order (core_cost_lut.yaml).
using CostTable = std::map<std::string, std::vector<CostEntry>>;

}  // namespace stream::cost
