// A NaN or an infinity never reaches a result file: they come from hardware figures that are
// finite but whose products overflow a double (an access cost of 1e308 times a count), and a
// summary saying `energy: .nan` (or `inf`) with exit 0 reads as a result. Checked per cost entry
// and per group total; the error names the figure, the group and, for an entry, node and core.
#pragma once

#include <string>

#include "stream/pipeline/run.hpp"

namespace stream::pipeline {

void check_finite(double value, const std::string& what, const std::string& where);
void check_finite(const GroupResult& group, const std::string& tag);

}  // namespace stream::pipeline
