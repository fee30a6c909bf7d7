#include "finite_figures.hpp"

#include <cmath>

namespace stream::pipeline {

void check_finite(double v, const std::string& what, const std::string& where) {
  if (std::isfinite(v)) return;
  throw Error(where + ": the " + what + " is " + (std::isnan(v) ? std::string("NaN") : std::string("infinite")) +
              " (a hardware cost or size so large that the figure overflows a double)");
}

void check_finite(const GroupResult& g, const std::string& tag) {
  for (const auto& [node, entries] : g.costs)
    for (const auto& e : entries) {
      const std::string where = tag + ", node '" + node + "' on core " + std::to_string(e.core_id);
      check_finite(e.latency_total, "per-core latency", where);
      check_finite(e.energy_total, "per-core energy", where);
      check_finite(e.mac_spatial_utilization, "MAC spatial utilisation", where);
    }
  check_finite(g.energy.compute, "compute energy", tag);
  check_finite(g.energy.transfer, "transfer energy", tag);
  check_finite(g.energy.offchip, "off-chip energy", tag);
  check_finite(g.energy.total(), "total energy", tag);
}

}  // namespace stream::pipeline
