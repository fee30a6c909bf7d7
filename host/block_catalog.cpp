#include "block_catalog.hpp"

namespace stream::host {

namespace {

nlohmann::ordered_json params_json(const BlockSpec& spec) {
  nlohmann::ordered_json ps = nlohmann::ordered_json::array();
  for (const auto& p : spec.params) {
    ps.push_back({{"name", p.name},
                  {"type", std::string(name(p.type))},
                  {"default", p.default_value},
                  {"description", p.description}});
    if (!p.aliases.empty()) ps.back()["aliases"] = p.aliases;
  }
  return ps;
}

}  // namespace

nlohmann::ordered_json blocks_json(Registries& registries) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& key : registries.block_keys()) {
    const BlockSpec& spec = registries.block(key);
    out.push_back({{"key", spec.key}, {"label", spec.label}, {"description", spec.description}, {"params", params_json(spec)}});
  }
  return out;
}

}  // namespace stream::host
