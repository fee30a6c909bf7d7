// steady_state_trace.json: the schedule of three consecutive iterations (i-1, i, i+1) in the
// Chrome trace-event format that Perfetto and chrome://tracing open (spec §4.11). One thread per
// physical resource (cores of compute nodes, then links of chosen plans, sorted core col*1000+row,
// link 1e6 + sender*1000 + receiver); iteration k's slot s starts at (k+1)(P-V) + sum_{j<s} L_j.
#pragma once

#include <string>

#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

[[nodiscard]] std::string steady_state_trace_json(const pipeline::GroupResult& group,
                                                  const hardware::Accelerator& accelerator);

}  // namespace stream::report
