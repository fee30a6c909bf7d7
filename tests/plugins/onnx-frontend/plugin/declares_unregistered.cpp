// A plugin whose manifest declares an ONNX op it never registers a parser for: the host warns at
// load, and the frontend's "no parser" error names this plugin.
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>

namespace {
void register_plugin(stream::PluginRegistrar&) {}
}  // namespace

STREAM_PLUGIN("test-declares-unregistered", "1.0.0", register_plugin)
