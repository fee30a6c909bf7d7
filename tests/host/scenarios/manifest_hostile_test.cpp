// Manifests as an attacker or a careless packager writes them: special files named like a manifest,
// numbers that wrap, library paths that leave the manifest's directory, and manifests of plugins
// the allow-list leaves out (never read).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>

#include <plugin_host.hpp>
#include <stream/error.hpp>

using namespace stream;
using namespace stream::host;
namespace fs = std::filesystem;

namespace {

class HostileManifest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("stream-hostile-manifest-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    const auto p = dir_ / name;
    std::ofstream(p) << text;
    return p;
  }
  // A well-formed manifest with one field's JSON text replaced.
  fs::path manifest_with(const std::string& abi, const std::string& priority, const std::string& library) {
    return write("m.stream-plugin.json", R"({"id": "m", "version": "1", "abi_version": )" + abi +
                                             R"(, "priority": )" + priority + R"(, "library": )" + library + "}");
  }
  void expect_rejected(const fs::path& manifest, const std::string& fragment) {
    try {
      (void)read_manifest(manifest);
      ADD_FAILURE() << "accepted; expected: " << fragment;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  }
  const PluginRecord& only_record(const PluginHost& host) {
    EXPECT_EQ(host.plugins().size(), 1u);
    return host.plugins().front();
  }
  PluginHostOptions here() const {
    PluginHostOptions o;
    o.extra_dirs.push_back(dir_);
    return o;
  }

  fs::path dir_;
};

}  // namespace

TEST_F(HostileManifest, AFifoNamedLikeAManifestIsRejectedNotOpened) {
  // Opening a FIFO for reading blocks until a writer comes: before, every command hung here.
  ASSERT_EQ(::mkfifo((dir_ / "fifo.stream-plugin.json").c_str(), 0600), 0);
  PluginHost host(here());
  EXPECT_EQ(only_record(host).status, PluginStatus::Rejected);
  EXPECT_NE(only_record(host).reason.find("a manifest must be a regular file"), std::string::npos);
}

TEST_F(HostileManifest, ADirectoryNamedLikeAManifestIsRejectedNotAnAbort) {
  fs::create_directory(dir_ / "dir.stream-plugin.json");
  PluginHost host(here());
  EXPECT_EQ(only_record(host).status, PluginStatus::Rejected);
  EXPECT_NE(only_record(host).reason.find("a manifest must be a regular file"), std::string::npos);
}

TEST_F(HostileManifest, NumbersOutOfRangeAreRejectedNotWrapped) {
  // 2^32 + 1 = 4294967297 became ABI version 1 through get<uint32_t>(); 2^32 - 1 is the largest kept.
  expect_rejected(manifest_with("4294967297", "0", R"("l.so")"), "\"abi_version\" (an integer from 0 to 2^32 - 1)");
  EXPECT_EQ(read_manifest(manifest_with("4294967295", "0", R"("l.so")")).abi_version, 4294967295u);
  // 2^63 = 9223372036854775808 is parsed as unsigned and wrapped to -2^63; 2^63 - 1 and -2^63 are kept.
  expect_rejected(manifest_with("1", "9223372036854775808", R"("l.so")"), "\"priority\" must be an integer from");
  EXPECT_EQ(read_manifest(manifest_with("1", "9223372036854775807", R"("l.so")")).priority, INT64_MAX);
  EXPECT_EQ(read_manifest(manifest_with("1", "-9223372036854775808", R"("l.so")")).priority, INT64_MIN);
}

TEST_F(HostileManifest, ANumberBeyondADoubleIsMalformedJsonNotAnAbort) {
  // Found by fuzz/manifest (fuzz/regressions/manifest/number-overflow.stream-plugin.json):
  // nlohmann::json throws out_of_range (406), not parse_error, for 4E888; it escaped the reader and
  // terminated the process.
  expect_rejected(manifest_with("4E888", "0", R"("l.so")"), "malformed JSON");
  expect_rejected(manifest_with("1", "-4E888", R"("l.so")"), "number overflow");
}

TEST_F(HostileManifest, TheLibraryMustSitInTheManifestsDirectory) {
  for (const std::string library : {"/usr/lib/x86_64-linux-gnu/libz.so.1", "../outside/libx.so", "sub/libx.so", "..", "."}) {
    SCOPED_TRACE(library);
    expect_rejected(manifest_with("1", "0", "\"" + library + "\""), "must be a file name in the manifest's directory");
  }
  EXPECT_EQ(read_manifest(manifest_with("1", "0", R"("libx.so")")).library, "libx.so");
}

TEST_F(HostileManifest, AManifestOutsideTheAllowListIsNotRead) {
  // Malformed JSON: read, it is "rejected: malformed JSON"; decided by its file name, it is disabled.
  write("other.stream-plugin.json", "{ not json");
  ASSERT_EQ(::mkfifo((dir_ / "fifo.stream-plugin.json").c_str(), 0600), 0);
  auto o = here();
  o.allow = std::set<std::string>{"good"};
  PluginHost host(std::move(o));
  ASSERT_EQ(host.plugins().size(), 2u);
  for (const auto& r : host.plugins()) {
    EXPECT_EQ(r.status, PluginStatus::Disabled) << r.manifest_path << ": " << r.reason;
    EXPECT_EQ(r.reason, "not in STREAM_PLUGINS");
  }
  EXPECT_EQ(host.plugins().at(1).manifest.id, "other");
}

TEST_F(HostileManifest, AnAllowedFileNameMustCarryItsOwnId) {
  // The allow-list matches file names, so a manifest cannot pose as an allowed plugin under another id.
  write("good.stream-plugin.json", R"({"id": "evil", "version": "1", "abi_version": 1, "library": "libx.so"})");
  auto o = here();
  o.allow = std::set<std::string>{"good"};
  PluginHost host(std::move(o));
  EXPECT_EQ(only_record(host).status, PluginStatus::Rejected);
  EXPECT_NE(only_record(host).reason.find("manifest id 'evil' differs from its file name"), std::string::npos);
}
