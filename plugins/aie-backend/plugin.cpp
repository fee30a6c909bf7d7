// Entry point of the AIE cost-backend plugin. What it registers must match the "provides" of its manifest.
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>
#include <stream/version.hpp>

#include "aie_backend.hpp"

namespace {
void register_plugin(stream::PluginRegistrar& registrar) { registrar.add_cost_backend(stream::aie::aie_backend()); }
}  // namespace

STREAM_PLUGIN("aie-backend", STREAM_VERSION_STRING, register_plugin)
