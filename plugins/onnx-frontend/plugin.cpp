// Entry point of the onnx-frontend plugin. What it registers must match the "provides" of its manifest.
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>
#include <stream/version.hpp>

namespace {
void register_plugin(stream::PluginRegistrar& /*registrar*/) {}
}  // namespace

STREAM_PLUGIN("onnx-frontend", STREAM_VERSION_STRING, register_plugin)
