// Python arguments as the host's: block parameters and sizes as KEY=VALUE strings, and a
// workload named by a path or a block key.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "session.hpp"
#include "workload_source.hpp"

namespace stream::python {

using StringMap = std::map<std::string, std::string>;

/// KEY=VALUE, in key order.
[[nodiscard]] std::vector<std::string> key_values(const StringMap& values);
/// Each value's str() (True and False as true and false).
[[nodiscard]] StringMap stringified(const pybind11::dict& values);
/// "block:KEY", or a registered block key that names no file, is that block with `params`; any
/// other text is a workload file (resolved later against the bundled inputs).
[[nodiscard]] host::WorkloadSource workload_source(const std::string& path_or_block, const StringMap& params, Session& s);

}  // namespace stream::python
