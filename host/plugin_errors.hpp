// Errors raised inside a plugin name the plugin.
//
// A user who runs a model through a vendor's binary parser, frontend or cost backend and gets
// "expects one input" cannot tell whose code said it. So the host hands the registries a wrapper
// around each callable a non-bundled plugin registers (a frontend's load, a parser, a block's
// builder, a decomposer, a cost backend's claims and cost): a stream::Error escaping it comes back
// as the same error (place and kind kept) whose message starts with "plugin '<id>': "; any other
// exception but std::bad_alloc (out of memory: the machine's, kept as it is) comes back as a
// std::runtime_error saying the same. An error that already names a plugin (a
// parser called by another plugin's frontend) is left as it is, so the innermost plugin is named
// once. Bundled plugins are part of Stream and are not wrapped: their messages read as Stream's.
#pragma once

#include <string>

#include <stream/registry/registries.hpp>

namespace stream::host {

[[nodiscard]] FrontendPtr naming_errors(FrontendPtr frontend, const std::string& plugin_id);
[[nodiscard]] OnnxParser naming_errors(OnnxParser parser, const std::string& plugin_id);
[[nodiscard]] BlockSpec naming_errors(BlockSpec spec, const std::string& plugin_id);
[[nodiscard]] Decomposer naming_errors(Decomposer decomposer, const std::string& plugin_id);
[[nodiscard]] CostBackend naming_errors(CostBackend backend, const std::string& plugin_id);

}  // namespace stream::host
