#include "stream/cost/cost_profile.hpp"

#include "stream/error.hpp"

namespace stream::cost {

const char* name(CostProfile profile) { return profile == CostProfile::Full ? "full" : "reference"; }

CostProfile parse_cost_profile(const std::string& text, const std::string& where) {
  if (text == "reference") return CostProfile::Reference;
  if (text == "full") return CostProfile::Full;
  throw Error(where + ": unknown cost profile '" + text + "' (expected reference or full)");
}

void apply_profile(CostEntry& entry, CostProfile profile) {
  if (profile != CostProfile::Full || !entry.is_fallback() || entry.traffic_cycles <= entry.latency_total) return;
  entry.latency_total = entry.traffic_cycles;
  entry.latency_traffic_bound = true;
}

}  // namespace stream::cost
