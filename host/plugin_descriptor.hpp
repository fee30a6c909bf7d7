// The host's side of the plugin ABI contract: reading a plugin's descriptor, whichever ABI 1.x
// layout it was built with, and deciding whether this host can use it.
//
// A descriptor's first 8 bytes (major version, size) are the same in every layout. A host of ABI
// M.m accepts a descriptor of major M and of minor m or older; a 32-byte descriptor is 1.0, whose
// layout has no minor, SDK version or standard-library tag. It reads only the members the
// claimed minor has, and requires `struct_size` to cover them (larger is accepted: ONNX Runtime's
// append-only rule). It rejects another major, a newer minor, another standard library, a minor
// that differs from the manifest's, an id that differs from the manifest's, and a null
// registration function, each with a reason naming the library and what it has against what the
// host has.
#pragma once

#include <cstdint>
#include <string>

#include <stream/plugin/plugin.hpp>

namespace stream::host {

struct PluginManifest;

/// What a plugin's descriptor says it was built with (for `stream plugins`).
struct PluginBuild {
  std::uint32_t abi_major = 0;
  std::uint32_t abi_minor = 0;
  std::string sdk_version;  ///< "" for an ABI 1.0 descriptor, which has none
  std::string stdlib;       ///< "" for an ABI 1.0 descriptor, which has none
};

struct DescriptorVerdict {
  PluginBuild build;   ///< as much as could be read
  std::string defect;  ///< why the host cannot use the plugin; empty when it can
};

/// The size of the descriptor of ABI minor `minor` of this host's major (minor <= this host's).
[[nodiscard]] std::uint32_t descriptor_size(std::uint32_t minor);

/// "1.1": the ABI this host speaks.
[[nodiscard]] std::string host_abi();

/// Checks `d` (what `library`'s entry symbol returned) against this host and `manifest`.
[[nodiscard]] DescriptorVerdict check_descriptor(const StreamPluginDescriptor* d, const PluginManifest& manifest,
                                                 const std::string& library);

}  // namespace stream::host
