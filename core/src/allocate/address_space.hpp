// The MILP solver's libraries do not survive running out of memory. Clp swallows a failed
// allocation into a status (a relaxation that is "not optimal", so the run goes on to CBC or
// reports the group infeasible: a wrong figure), and an allocation that does throw unwinds
// through destructors that then assert (~OsiClpSolverInterface: `factorization_ == NULL`) or
// call through a null pointer (~CbcModel, a segfault). Measured on ResNet-50 under `ulimit -v`
// 57-59 MB: abort, segfault, segfault. Nothing inside them can be caught reliably, so a solve
// starts only when the address space it may need is there; otherwise it is an OutOfMemory in
// the allocation step, before the solver holds any state.
#pragma once

#include <cstddef>

#include "stream/allocate/linear_model.hpp"

namespace stream::allocate {

/// The address space one solve of `model` may take: Clp's and CBC's copies of the model, their
/// factorisations and work arrays, and the solver libraries CBC loads, with a margin.
[[nodiscard]] std::size_t solver_headroom(const LinearModel& model);

/// Throws OutOfMemory("allocation") when the process's address-space limit (RLIMIT_AS) leaves
/// fewer than `bytes` free. Without a limit it costs one getrlimit call.
void require_address_space(std::size_t bytes);

}  // namespace stream::allocate
