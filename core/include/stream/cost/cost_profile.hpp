// Which latency an ideal-cycle estimate gets (docs/cost-model.md, "Cost profiles"): Reference
// keeps the reference's rule, so that its goldens hold; Full bounds it below by the traffic
// model's port cycles as well (traffic_model.hpp). The energy is the traffic model's in both.
#pragma once

#include <string>

#include "stream/cost/cost_table.hpp"
#include "stream/export.hpp"

namespace stream::cost {

enum class CostProfile { Reference, Full };
[[nodiscard]] STREAM_API const char* name(CostProfile profile);  ///< "reference", "full"
/// "reference" or "full"; anything else throws a stream::Error (bad input) naming `where`.
[[nodiscard]] STREAM_API CostProfile parse_cost_profile(const std::string& text, const std::string& where);

/// `entry` as `profile` gives it: under Full an estimate takes no fewer cycles than its busiest
/// memory port needs (and says so, latency_traffic_bound); anything else is left as it is.
void apply_profile(CostEntry& entry, CostProfile profile);

}  // namespace stream::cost
