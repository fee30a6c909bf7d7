// Entry point of the torch-frontend plugin. What it registers must match the "provides" of its
// manifest: the `torch_export` frontend for `.pt2` archives.
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>
#include <stream/version.hpp>

#include "stream_torch/torch_frontend.hpp"

namespace {
void register_plugin(stream::PluginRegistrar& registrar) { stream::torch_frontend::register_torch_frontend(registrar); }
}  // namespace

STREAM_PLUGIN("torch-frontend", STREAM_VERSION_STRING, register_plugin)
