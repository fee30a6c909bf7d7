// steady_state_trace.json: the schedule of three consecutive iterations (i-1, i, i+1) in the
// Chrome trace-event format that Perfetto and chrome://tracing open (spec §4.11). One process per
// group (integer pid = group index + 1, with process_name metadata); one thread per physical
// resource (cores of compute nodes by id, then links of chosen plans by sender and receiver,
// buses last) and lane: events of one resource that overlap in time (consecutive iterations,
// transfers sharing a link) go on extra lanes, so that no two complete events on one thread
// overlap. Integer tids from 1 in that order, named by thread_name metadata. Iteration k's slot
// s starts at (k+1)(P-V) + sum_{j<s} L_j; 1 trace microsecond is 1 clock cycle, and every
// argument that is a quantity names its unit (_cycles, _bits).
#pragma once

#include <string>

#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

[[nodiscard]] std::string steady_state_trace_json(const pipeline::GroupResult& group,
                                                  const hardware::Accelerator& accelerator);

}  // namespace stream::report
