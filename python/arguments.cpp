#include "arguments.hpp"

#include <algorithm>
#include <filesystem>

#include "inputs.hpp"
#include "plugin_host.hpp"

namespace stream::python {

namespace py = pybind11;

std::vector<std::string> key_values(const StringMap& values) {
  std::vector<std::string> out;
  for (const auto& [k, v] : values) out.push_back(k + "=" + v);
  return out;
}

// A block parameter or dimension size given as any Python value: its str() (True -> "true").
StringMap stringified(const py::dict& values) {
  StringMap out;
  for (const auto& [k, v] : values)
    out[k.cast<std::string>()] = py::isinstance<py::bool_>(v) ? (v.cast<bool>() ? "true" : "false") : py::str(v).cast<std::string>();
  return out;
}

// "block:KEY", a registered block key that is not a file, or else a file (the bundled inputs too).
host::WorkloadSource workload_source(const std::string& path_or_block, const StringMap& params, Session& s) {
  host::WorkloadSource source;
  const bool block_prefix = path_or_block.rfind("block:", 0) == 0;
  const std::string key = block_prefix ? path_or_block.substr(6) : path_or_block;
  bool is_block = block_prefix;
  if (!is_block && !host::find_input(path_or_block)) {
    const std::lock_guard lock(s.mutex);
    const auto keys = s.context.plugins().registries().block_keys();
    is_block = std::find(keys.begin(), keys.end(), key) != keys.end();
  }
  if (is_block) source.block = key;
  else source.file = path_or_block;
  source.params = key_values(params);
  return source;
}

}  // namespace stream::python
