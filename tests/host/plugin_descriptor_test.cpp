// The plugin ABI contract (plugin.hpp, plugin_descriptor.hpp) against the zoo: which descriptor
// versions, sizes and standard libraries a host of ABI 1.1 accepts, the exact reason for each
// rejection, and the warnings about registrations that differ from the manifest.
#include <gtest/gtest.h>

#include <plugin_host.hpp>
#include <stream/error.hpp>

#include "zoo_host.hpp"

using namespace stream;
using namespace stream::host;
using stream::test::record;
using stream::test::zoo_options;

namespace {

// The expected reasons below are written for a host of ABI 1.1 (plugin.hpp).
static_assert(STREAM_PLUGIN_ABI_VERSION == 1 && STREAM_PLUGIN_ABI_MINOR == 1,
              "the ABI changed: review the expected reasons of these tests");

// Loads every zoo plugin named, and returns the host.
std::unique_ptr<PluginHost> loaded(const std::vector<std::string>& ids) {
  auto host = std::make_unique<PluginHost>(zoo_options(ids));
  host->load_all();
  return host;
}

void expect_rejected(const std::string& id, const std::string& reason) {
  auto host = loaded({id});
  const auto& r = record(*host, id);
  EXPECT_EQ(r.status, PluginStatus::Rejected) << id;
  EXPECT_EQ(r.reason, reason) << id;
  // Nothing of a rejected plugin is registered.
  EXPECT_TRUE(host->registries().blocks().keys().empty()) << id;
}

}  // namespace

TEST(PluginAbi, AnotherMajorVersionIsRejectedNewerOrOlder) {
  // Descriptor major 2 and 0 against the host's 1; their manifests state 1.1, so the library is opened.
  expect_rejected("newer-major", "libzoo_newer_major.so was built for plugin ABI major version 2, this host speaks "
                                 "ABI 1.1: another major version is incompatible (rebuild the plugin against this "
                                 "host's Stream SDK)");
  expect_rejected("older-major", "libzoo_older_major.so was built for plugin ABI major version 0, this host speaks "
                                 "ABI 1.1: another major version is incompatible (rebuild the plugin against this "
                                 "host's Stream SDK)");
  // A manifest of major 7 is rejected at discovery, its library never opened (it does not exist).
  PluginHost host(zoo_options({"future-abi"}));
  EXPECT_EQ(record(host, "future-abi").status, PluginStatus::Rejected);
  EXPECT_EQ(record(host, "future-abi").reason,
            "manifest declares plugin ABI 7.0, this host speaks 1.1: another major version is incompatible");
}

TEST(PluginAbi, AnOlderMinorLoadsAndANewerOneIsRejected) {
  // A 32-byte descriptor with a manifest without "abi_minor": a plugin built against ABI 1.0.
  auto host = loaded({"older-minor", "grown-descriptor"});
  const auto& old = record(*host, "older-minor");
  EXPECT_EQ(old.status, PluginStatus::Loaded) << old.reason;
  EXPECT_EQ(old.build.abi_major, 1u);
  EXPECT_EQ(old.build.abi_minor, 0u);
  EXPECT_EQ(old.build.stdlib, "");  // 1.0 had no tag: nothing to compare
  EXPECT_EQ(host->registries().block("OldMinorOp").description, "built by older-minor");
  // 1.1 with one member more than 1.1 has (64 bytes, not 56): struct_size >= the minor's size loads.
  const auto& grown = record(*host, "grown-descriptor");
  EXPECT_EQ(grown.status, PluginStatus::Loaded) << grown.reason;
  EXPECT_EQ(grown.build.abi_minor, 1u);
  EXPECT_EQ(grown.build.stdlib, STREAM_PLUGIN_STDLIB);
  EXPECT_EQ(grown.build.sdk_version, STREAM_PLUGIN_SDK_VERSION);

  expect_rejected("newer-minor", "libzoo_newer_minor.so was built for plugin ABI 1.2, newer than this host's 1.1: a "
                                 "host accepts its own or an older minor version (upgrade Stream, or rebuild the "
                                 "plugin against this host's SDK)");
  PluginHost manifest_only(zoo_options({"future-minor"}));
  EXPECT_EQ(record(manifest_only, "future-minor").reason,
            "manifest declares plugin ABI 1.2, newer than this host's 1.1: a host accepts its own or an older minor "
            "version");
}

TEST(PluginAbi, ADescriptorSmallerThanItsMinorNeedsIsRejected) {
  // 1.1 is 56 bytes (abi_minor at 32, sdk_version at 40, stdlib at 48); the zoo's claims 1.1 in 48.
  EXPECT_EQ(descriptor_size(1), 56u);
  expect_rejected("short-descriptor", "libzoo_short_descriptor.so's descriptor is 48 bytes, but ABI 1.1 needs at least 56");
  expect_rejected("tiny-descriptor", "libzoo_tiny_descriptor.so's descriptor is 24 bytes, smaller than the 32 of ABI "
                                     "1.0 (a corrupt descriptor, or one not made by STREAM_PLUGIN)");
}

TEST(PluginAbi, TheManifestMustStateTheLibrarysMinor) {
  // Manifest "abi_minor": 0, library built for 1.1.
  expect_rejected("manifest-minor", "the manifest declares plugin ABI 1.0 but libzoo_manifest_minor.so was built for "
                                    "1.1: the manifest is not the one built with this library (stream_add_plugin() "
                                    "writes both)");
}

TEST(PluginAbi, ANullDescriptorOrRegistrationFunctionIsRejected) {
  expect_rejected("null-descriptor", "the entry symbol of libzoo_null_descriptor.so returned no descriptor (a null pointer)");
  expect_rejected("null-register",
                  "the descriptor of libzoo_null_register.so has no registration function (register_plugin is null)");
}

TEST(PluginAbi, AnotherStandardLibraryIsRejected) {
#if !defined(__GLIBCXX__) || !_GLIBCXX_USE_CXX11_ABI
  GTEST_SKIP() << "the zoo's other-stdlib plugin is libstdc++'s pre-C++11 ABI against a host of the C++11 one";
#endif
  expect_rejected("other-stdlib", "libzoo_other_stdlib.so was built against the C++ standard library 'libstdc++ "
                                  "pre-cxx11 abi', this host against 'libstdc++ cxx11 abi': the std:: types that "
                                  "cross the plugin boundary would not match (rebuild the plugin with the host's "
                                  "standard library)");
}

TEST(PluginAbi, ALibraryThatDoesNotOpenGivesTheLoadersReason) {
  auto host = loaded({"does-not-open"});
  const auto& r = record(*host, "does-not-open");
  EXPECT_EQ(r.status, PluginStatus::Rejected);
  const auto lib = (stream::test::zoo("does-not-open") / "libzoo_does_not_open.so").string();
  // dlerror's text for RTLD_NOW and a symbol the library references but nothing defines.
  EXPECT_EQ(r.reason, "cannot open library " + lib + ": " + lib + ": undefined symbol: zoo_symbol_no_library_defines");
}
