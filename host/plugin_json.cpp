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
  return j;
}

}  // namespace stream::host
