// The reference blocks the plugins provide, as `stream blocks list --format json` prints them:
// each block's key, label, description and parameters (name, type, default, description), in key
// order. Shared by `stream blocks` and the Python module's blocks().
#pragma once

#include <nlohmann/json.hpp>
#include <stream/registry/registries.hpp>

namespace stream::host {

[[nodiscard]] nlohmann::ordered_json blocks_json(Registries& registries);

}  // namespace stream::host
