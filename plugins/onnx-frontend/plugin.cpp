// Entry point of the onnx-frontend plugin. What it registers must match the "provides" of its
// manifest (tests/plugins/onnx-frontend checks that the manifest lists every built-in op type).
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>
#include <stream/version.hpp>

#include "stream_onnx/onnx_frontend.hpp"

namespace {
void register_plugin(stream::PluginRegistrar& registrar) { stream::onnx_frontend::register_onnx_frontend(registrar); }
}  // namespace

STREAM_PLUGIN("onnx-frontend", STREAM_VERSION_STRING, register_plugin)
