// Stream plugin boundary.
//
// A plugin is a shared library plus a JSON manifest beside it. The library exports exactly one
// C symbol, `stream_plugin_descriptor`, returning a pointer to a plain descriptor: the ABI version
// it was built against, the descriptor's own size (so the host can tell an older or newer layout
// from a corrupt one), the plugin's id and version, and one registration function. The host calls
// that function with a registrar through which the plugin adds frontends, ONNX operator parsers,
// reference blocks and decompositions to the host's registries; those are C++ interfaces of
// libstream_core, so a plugin must be built by the same compiler family against the same Stream
// SDK (source-level stability, as LLVM's pass plugins). The rules for changing this header:
// never reorder or remove descriptor members; append only, and bump STREAM_PLUGIN_ABI_VERSION on
// any change a plugin built against the old header could not survive. See docs/plugins.md.
#pragma once

#include <cstddef>
#include <cstdint>

#define STREAM_PLUGIN_ABI_VERSION 1u
#define STREAM_PLUGIN_ENTRY_SYMBOL "stream_plugin_descriptor"

namespace stream {
class PluginRegistrar;
}

extern "C" {

/// What the entry symbol returns. Plain data only; lives for the life of the library.
struct StreamPluginDescriptor {
  std::uint32_t abi_version;  ///< STREAM_PLUGIN_ABI_VERSION of the SDK the plugin was built with
  std::uint32_t struct_size;  ///< sizeof(StreamPluginDescriptor) as the plugin saw it
  const char* id;             ///< must equal the manifest's "id"
  const char* version;        ///< the plugin's own version, free text (semver advised)
  /// Adds what the plugin provides. May throw; the host reports the exception and skips the plugin.
  void (*register_plugin)(stream::PluginRegistrar& registrar);
};

typedef const StreamPluginDescriptor* (*StreamPluginEntryFn)();
}

static_assert(offsetof(StreamPluginDescriptor, register_plugin) == 24,
              "StreamPluginDescriptor layout of ABI version 1 must not change");

/// Defines the entry symbol of a plugin library. Use it in exactly one source file of the plugin.
#define STREAM_PLUGIN(ID, VERSION, REGISTER_FN)                                                   \
  extern "C" __attribute__((visibility("default"))) const StreamPluginDescriptor*                \
  stream_plugin_descriptor() {                                                                   \
    static const StreamPluginDescriptor descriptor{STREAM_PLUGIN_ABI_VERSION,                    \
                                                   sizeof(StreamPluginDescriptor), ID, VERSION,  \
                                                   REGISTER_FN};                                 \
    return &descriptor;                                                                          \
  }
