// A plugin as `stream plugins --format json` lists it: id, version, directory, manifest, library,
// bundled, priority, description, what it provides, status (and why, when rejected or disabled),
// the ABI its manifest declares, what its descriptor says it was built with (once opened), and the
// warnings loading it raised.
// Shared by `stream plugins` and `stream mcp`'s list_plugins tool.
#pragma once

#include <nlohmann/json.hpp>

#include "plugin_host.hpp"

namespace stream::host {

[[nodiscard]] nlohmann::json plugin_json(const PluginRecord& r);

}  // namespace stream::host
