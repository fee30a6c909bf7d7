// What the tests of the plugin host against the zoo (tests/host/CMakeLists.txt) share: a host that
// sees only the zoo plugins a test names, and the record of one of them.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <plugin_host.hpp>

namespace stream::test {

inline std::filesystem::path zoo(const std::string& id) { return std::filesystem::path(STREAM_ZOO_DIR) / id; }

/// `ids` as extra plugin directories, `bundled` as bundled ones, in that order.
inline host::PluginHostOptions zoo_options(const std::vector<std::string>& ids, const std::vector<std::string>& bundled = {}) {
  host::PluginHostOptions o;
  for (const auto& id : bundled) o.bundled_dirs.push_back(zoo(id));
  for (const auto& id : ids) o.extra_dirs.push_back(zoo(id));
  return o;
}

inline const host::PluginRecord& record(const host::PluginHost& host, const std::string& id) {
  for (const auto& r : host.plugins())
    if (r.manifest.id == id) return r;
  throw std::runtime_error("no plugin " + id);
}

}  // namespace stream::test
