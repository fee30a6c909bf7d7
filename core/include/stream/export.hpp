// What libstream_core exports.
//
// The core is built with hidden visibility (-fvisibility=hidden -fvisibility-inlines-hidden), so
// only declarations marked STREAM_API are in its dynamic symbol table: the SDK's API (the IR, the
// registries, the errors a plugin throws) and what Stream's own host, Python module and tests call.
// Everything else, and everything of the libraries the core uses privately (spdlog, fmt, yaml-cpp,
// CBC), stays inside the library, so a plugin cannot bind to it by accident and a new core can
// change it freely. A class marked STREAM_API exports its out-of-line members, its type_info and its
// vtable; a free function is marked on its declaration. On ELF, the same attribute serves the
// library and its users, so no "building the library" switch is needed.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define STREAM_API __attribute__((visibility("default")))
#else
#define STREAM_API
#endif
