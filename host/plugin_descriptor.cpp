#include "plugin_descriptor.hpp"

#include <array>
#include <cstddef>
#include <cstring>

#include "plugin_host.hpp"

namespace stream::host {

namespace {

// The descriptor size of each minor of ABI major 1, indexed by minor: append a row with each bump.
constexpr std::array<std::uint32_t, STREAM_PLUGIN_ABI_MINOR + 1> kSizeOfMinor{
    offsetof(StreamPluginDescriptor, abi_minor),  // 1.0: up to register_plugin
    sizeof(StreamPluginDescriptor),               // 1.1: abi_minor, sdk_version, stdlib
};
static_assert(kSizeOfMinor[0] == 32 && kSizeOfMinor.back() == sizeof(StreamPluginDescriptor),
              "one size per minor, the last one this header's");
// The bytes a descriptor needs for its abi_minor to be readable.
constexpr std::uint32_t kMinorEnd = offsetof(StreamPluginDescriptor, abi_minor) + sizeof(std::uint32_t);

std::string abi(std::uint32_t major, std::uint32_t minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

// The layout checks: major, size, minor. Fills build.abi_*; returns the defect or "".
std::string check_layout(const StreamPluginDescriptor& d, const std::string& library, PluginBuild& build) {
  build.abi_major = d.abi_version;
  if (d.abi_version != STREAM_PLUGIN_ABI_VERSION)
    return library + " was built for plugin ABI major version " + std::to_string(d.abi_version) +
           ", this host speaks ABI " + host_abi() +
           ": another major version is incompatible (rebuild the plugin against this host's Stream SDK)";
  const std::uint32_t size = d.struct_size;
  if (size < kSizeOfMinor[0])
    return library + "'s descriptor is " + std::to_string(size) + " bytes, smaller than the " +
           std::to_string(kSizeOfMinor[0]) + " of ABI " + abi(STREAM_PLUGIN_ABI_VERSION, 0) +
           " (a corrupt descriptor, or one not made by STREAM_PLUGIN)";
  if (size == kSizeOfMinor[0]) return "";  // 1.0: the layout has no abi_minor to read
  if (size < kMinorEnd)
    return library + "'s descriptor is " + std::to_string(size) + " bytes: more than ABI " +
           abi(STREAM_PLUGIN_ABI_VERSION, 0) + "'s " + std::to_string(kSizeOfMinor[0]) +
           " but too few to hold abi_minor (" + std::to_string(kMinorEnd) + ")";
  build.abi_minor = d.abi_minor;
  if (d.abi_minor > STREAM_PLUGIN_ABI_MINOR)
    return library + " was built for plugin ABI " + abi(d.abi_version, d.abi_minor) + ", newer than this host's " +
           host_abi() + ": a host accepts its own or an older minor version (upgrade Stream, or rebuild the plugin "
           "against this host's SDK)";
  if (d.abi_minor == 0)
    return library + "'s descriptor claims ABI " + abi(d.abi_version, 0) + " but is " + std::to_string(size) +
           " bytes; an ABI " + abi(d.abi_version, 0) + " descriptor is exactly " + std::to_string(kSizeOfMinor[0]);
  if (size < kSizeOfMinor[d.abi_minor])
    return library + "'s descriptor is " + std::to_string(size) + " bytes, but ABI " + abi(d.abi_version, d.abi_minor) +
           " needs at least " + std::to_string(kSizeOfMinor[d.abi_minor]);
  return "";
}

// The members of ABI 1.1: the standard library must be the host's; the SDK version is informative.
std::string check_toolchain(const StreamPluginDescriptor& d, const std::string& library, PluginBuild& build) {
  if (build.abi_minor < 1) return "";
  build.sdk_version = d.sdk_version ? d.sdk_version : "";
  if (d.stdlib == nullptr) return library + "'s descriptor names no C++ standard library (stdlib is null)";
  build.stdlib = d.stdlib;
  if (std::strcmp(d.stdlib, STREAM_PLUGIN_STDLIB) != 0)
    return library + " was built against the C++ standard library '" + build.stdlib + "', this host against '" +
           STREAM_PLUGIN_STDLIB + "': the std:: types that cross the plugin boundary would not match (rebuild the "
           "plugin with the host's standard library)";
  return "";
}

}  // namespace

std::uint32_t descriptor_size(std::uint32_t minor) { return kSizeOfMinor.at(minor); }

std::string host_abi() { return abi(STREAM_PLUGIN_ABI_VERSION, STREAM_PLUGIN_ABI_MINOR); }

DescriptorVerdict check_descriptor(const StreamPluginDescriptor* d, const PluginManifest& manifest,
                                   const std::string& library) {
  DescriptorVerdict v;
  auto defect = [&](std::string why) {
    v.defect = std::move(why);
    return v;
  };
  if (d == nullptr) return defect("the entry symbol of " + library + " returned no descriptor (a null pointer)");
  if (auto why = check_layout(*d, library, v.build); !why.empty()) return defect(std::move(why));
  if (auto why = check_toolchain(*d, library, v.build); !why.empty()) return defect(std::move(why));
  if (manifest.abi_minor != v.build.abi_minor)
    return defect("the manifest declares plugin ABI " + abi(manifest.abi_version, manifest.abi_minor) + " but " +
                  library + " was built for " + abi(v.build.abi_major, v.build.abi_minor) +
                  ": the manifest is not the one built with this library (stream_add_plugin() writes both)");
  if (d->id == nullptr || manifest.id != d->id)
    return defect("library id '" + std::string(d->id ? d->id : "(null)") + "' differs from the manifest id '" +
                  manifest.id + "'");
  if (d->register_plugin == nullptr)
    return defect("the descriptor of " + library + " has no registration function (register_plugin is null)");
  return v;
}

}  // namespace stream::host
