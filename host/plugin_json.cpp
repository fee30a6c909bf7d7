#include "plugin_json.hpp"

namespace stream::host {

nlohmann::json plugin_json(const PluginRecord& r) {
  nlohmann::json fe = nlohmann::json::array();
  for (const auto& f : r.manifest.frontends) fe.push_back({{"name", f.name}, {"extensions", f.extensions}});
  nlohmann::json backends = nlohmann::json::array();
  for (const auto& b : r.manifest.cost_backends) backends.push_back({{"name", b.name}, {"core_types", b.core_types}});
  nlohmann::json j{{"id", r.manifest.id},
                   {"version", r.manifest.version},
                   {"path", r.manifest_path.parent_path().string()},
                   {"manifest", r.manifest_path.filename().string()},
                   {"library", r.manifest.library},
                   {"bundled", r.bundled},
                   {"priority", r.manifest.priority},
                   {"description", r.manifest.description},
                   {"provides",
                    {{"frontends", fe},
                     {"onnx_ops", r.manifest.onnx_ops},
                     {"blocks", r.manifest.blocks},
                     {"decompositions", r.manifest.decompositions},
                     {"cost_backends", backends}}},
                   {"status", std::string(name(r.status))}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  j["abi"] = std::to_string(r.manifest.abi_version) + "." + std::to_string(r.manifest.abi_minor);
  if (r.build.abi_major != 0)
    j["built_with"] = {{"abi", std::to_string(r.build.abi_major) + "." + std::to_string(r.build.abi_minor)},
                       {"sdk_version", r.build.sdk_version},
                       {"stdlib", r.build.stdlib}};
  if (!r.warnings.empty()) j["warnings"] = r.warnings;
  return j;
}

}  // namespace stream::host
