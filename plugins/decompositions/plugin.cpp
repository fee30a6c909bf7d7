// Entry point of the decompositions plugin. What it registers must match the "provides" of its manifest.
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>
#include <stream/version.hpp>

#include "decompositions.hpp"

namespace {
void register_plugin(stream::PluginRegistrar& registrar) {
  for (auto& [op_type, decomposer] : stream::decompositions::all_decompositions())
    registrar.add_decomposition(op_type, std::move(decomposer));
}
}  // namespace

STREAM_PLUGIN("decompositions", STREAM_VERSION_STRING, register_plugin)
