// A LinearModel as a free-format MPS file's text (the infeasible allocation model, for a person
// to open in any MILP solver). Plain text of the model alone, no solver involved: the allocation
// returns it as a value and report/ writes it with the other result files.
#pragma once

#include <string>

#include "stream/allocate/linear_model.hpp"
#include "stream/export.hpp"

namespace stream::allocate {

/// The model with `objective`, rows r<i> and columns c<j> (their names listed in comments at the
/// end, for reading the file against the model).
[[nodiscard]] STREAM_API std::string mps_text(const LinearModel& model, const LinExpr& objective);

}  // namespace stream::allocate
