// Stream plugin boundary.
//
// A plugin is a shared library plus a JSON manifest beside it. The library exports exactly one
// C symbol, `stream_plugin_descriptor`, returning a pointer to a plain descriptor: the ABI version
// it was built against (major and minor), the descriptor's own size, the plugin's id and version,
// one registration function, and the SDK version and C++ standard library it was compiled with.
// The host calls that function with a registrar through which the plugin adds frontends, ONNX
// operator parsers, reference blocks, decompositions and cost backends to the host's registries;
// those are C++ interfaces of libstream_core, so a plugin must be built by the same compiler
// family, against the same standard library, with the same Stream SDK (source-level stability, as
// LLVM's pass plugins).
//
// Versioning (ONNX Runtime's append-only structs; gz-plugin's both-sides checks): the descriptor
// only grows. Appending members bumps STREAM_PLUGIN_ABI_MINOR; the host accepts a plugin of its own
// or an older minor (it reads only the members that minor has, told by `struct_size`), and rejects
// a newer minor. Anything an old plugin could not survive (reordering, removing or retyping a
// member, an incompatible change of the registrar or the IR) bumps STREAM_PLUGIN_ABI_VERSION, the
// major, and resets the minor; the host rejects any other major. See docs/plugins.md.
#pragma once

#include <cstddef>  // also defines the standard library's identification macros read below
#include <cstdint>

#include "stream/plugin/sdk_version.hpp"

/// The major ABI version: a plugin of another major is rejected.
#define STREAM_PLUGIN_ABI_VERSION 1u
/// The minor ABI version: descriptor members appended since the major's first layout (1.0, 32 bytes).
#define STREAM_PLUGIN_ABI_MINOR 1u
#define STREAM_PLUGIN_ENTRY_SYMBOL "stream_plugin_descriptor"

#define STREAM_PLUGIN_STRINGIFY_(X) #X
#define STREAM_PLUGIN_STRINGIFY(X) STREAM_PLUGIN_STRINGIFY_(X)

/// The C++ standard library and its ABI variant the including code is compiled against: libstdc++
/// with the C++11 std::string/std::list ABI or the old one (_GLIBCXX_USE_CXX11_ABI), or libc++ and
/// its ABI version. A plugin and the host must agree, since std::string crosses the boundary.
#if defined(_LIBCPP_VERSION)
#define STREAM_PLUGIN_STDLIB "libc++ abi " STREAM_PLUGIN_STRINGIFY(_LIBCPP_ABI_VERSION)
#elif defined(__GLIBCXX__)
#if _GLIBCXX_USE_CXX11_ABI
#define STREAM_PLUGIN_STDLIB "libstdc++ cxx11 abi"
#else
#define STREAM_PLUGIN_STDLIB "libstdc++ pre-cxx11 abi"
#endif
#elif defined(_MSVC_STL_VERSION)
#define STREAM_PLUGIN_STDLIB "msvc stl"
#else
#define STREAM_PLUGIN_STDLIB "unknown standard library"
#endif

namespace stream {
class PluginRegistrar;
}

extern "C" {

/// What the entry symbol returns. Plain data only; lives for the life of the library.
struct StreamPluginDescriptor {
  // ABI 1.0: the first 8 bytes (version and size) keep their place in every major version.
  std::uint32_t abi_version;  ///< STREAM_PLUGIN_ABI_VERSION (the major) of the SDK the plugin was built with
  std::uint32_t struct_size;  ///< sizeof(StreamPluginDescriptor) as the plugin saw it
  const char* id;             ///< must equal the manifest's "id"
  const char* version;        ///< the plugin's own version, free text (semver advised)
  /// Adds what the plugin provides. May throw; the host reports the exception and skips the plugin.
  void (*register_plugin)(stream::PluginRegistrar& registrar);
  // ABI 1.1
  std::uint32_t abi_minor;  ///< STREAM_PLUGIN_ABI_MINOR of the SDK; must equal the manifest's "abi_minor"
  const char* sdk_version;  ///< STREAM_PLUGIN_SDK_VERSION, the Stream release of the SDK (informative)
  const char* stdlib;       ///< STREAM_PLUGIN_STDLIB; must equal the host's
};

typedef const StreamPluginDescriptor* (*StreamPluginEntryFn)();
}

static_assert(offsetof(StreamPluginDescriptor, register_plugin) == 24,
              "StreamPluginDescriptor layout of ABI version 1.0 must not change");
static_assert(offsetof(StreamPluginDescriptor, abi_minor) == 32 && offsetof(StreamPluginDescriptor, stdlib) == 48,
              "StreamPluginDescriptor layout of ABI version 1.1 must not change");

/// Defines the entry symbol of a plugin library. Use it in exactly one source file of the plugin.
#define STREAM_PLUGIN(ID, VERSION, REGISTER_FN)                                                    \
  extern "C" __attribute__((visibility("default"))) const StreamPluginDescriptor*                 \
  stream_plugin_descriptor() {                                                                    \
    static const StreamPluginDescriptor descriptor{STREAM_PLUGIN_ABI_VERSION,                     \
                                                   sizeof(StreamPluginDescriptor),                \
                                                   ID,                                            \
                                                   VERSION,                                       \
                                                   REGISTER_FN,                                   \
                                                   STREAM_PLUGIN_ABI_MINOR,                       \
                                                   STREAM_PLUGIN_SDK_VERSION,                     \
                                                   STREAM_PLUGIN_STDLIB};                         \
    return &descriptor;                                                                           \
  }
