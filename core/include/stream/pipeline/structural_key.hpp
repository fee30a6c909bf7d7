// Structural identity of a fusion group's allocation problem, for deduplication.
//
// The allocation MILP reads a group's steady state (its tiled nodes and tensors with their
// shapes, dims, temporal loops, placements, core groups, routing plans and compute latencies)
// and the allocation options; names only label rows and columns. allocation_key() writes every
// one of those inputs except the names, so two groups with equal keys have the same MILP up to
// labels and the same optimal allocation, which the pipeline then solves once (run.hpp,
// RunSpec::deduplicate).
#pragma once

#include <string>

#include "stream/allocate/allocation_milp.hpp"
#include "stream/export.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::pipeline {

[[nodiscard]] STREAM_API std::string allocation_key(const schedule::SteadyState& steady_state,
                                                    const allocate::AllocateOptions& options);

}  // namespace stream::pipeline
