// C++ errors as Python exceptions. A stream::Error becomes StreamInputError (bad input; also a
// ValueError) or StreamInternalError (also a RuntimeError), both StreamError, carrying the C++
// error's message and place: `message`, `file`, `line`, `column`, `node`, `operand` (empty
// string or 0 when unknown); str() of the exception is the C++ error's full text, place first.
// EstimateWarning (a UserWarning) is the warning a run gives when ideal-cycle estimates stood in
// for per-core model figures, so that a caller can filter it or turn it into an error.
#pragma once

#include <string>

#include <pybind11/pybind11.h>

namespace stream::python {

/// Creates the exception types in `m` and registers the translator.
void register_errors(pybind11::module_& m);

/// warnings.warn(message, EstimateWarning); raises (error_already_set) when the filters make it an
/// error.
void warn_estimates(const std::string& message);

}  // namespace stream::python
