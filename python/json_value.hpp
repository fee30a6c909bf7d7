// nlohmann JSON values as Python objects (dict, list, str, int, float, bool, None), and back. The
// host's JSON forms (summary, validation, workload, blocks, sweep rows) are what the module
// returns, so Python sees the same fields as `--format json` and the result files.
#pragma once

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

namespace stream::python {

[[nodiscard]] pybind11::object to_python(const nlohmann::json& j);
[[nodiscard]] pybind11::object to_python(const nlohmann::ordered_json& j);
/// Keys of dicts must be strings (their order is kept); other values raise TypeError.
[[nodiscard]] nlohmann::ordered_json to_json(pybind11::handle value);

}  // namespace stream::python
