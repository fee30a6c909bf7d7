// The ONNX frontend plugin's own API, for the plugin entry point, tests and benchmarks.
//
// register_onnx_frontend adds the `onnx` WorkloadFrontend and every built-in operator parser
// through a PluginRegistrar, exactly as the plugin does when the host loads it; a parser another
// plugin registers for the same op type with a higher priority (or discovered later) wins.
#pragma once

#include <string>
#include <vector>

#include <stream/registry/frontends.hpp>
#include <stream/registry/registries.hpp>

namespace stream::onnx_frontend {

/// The `onnx` frontend (accepts paths ending in `.onnx`).
[[nodiscard]] FrontendPtr make_onnx_frontend();
/// Op types of every built-in parser, in registration order (the manifest's provides.onnx_ops).
[[nodiscard]] std::vector<std::string> builtin_op_types();
/// Registers every built-in parser.
void register_builtin_parsers(PluginRegistrar& registrar);
/// Registers the frontend and the built-in parsers (what the plugin's entry point does).
void register_onnx_frontend(PluginRegistrar& registrar);

}  // namespace stream::onnx_frontend
