// Entry point of the blocks plugin. What it registers must match the "provides" of its manifest.
#include <stream/plugin/plugin.hpp>
#include <stream/registry/registries.hpp>
#include <stream/version.hpp>

#include "blocks.hpp"

namespace {
void register_plugin(stream::PluginRegistrar& registrar) {
  for (auto& spec : stream::blocks::all_block_specs()) registrar.add_block(std::move(spec));
}
}  // namespace

STREAM_PLUGIN("blocks", STREAM_VERSION_STRING, register_plugin)
