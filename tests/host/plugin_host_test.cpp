// The plugin host against the zoo of broken plugins built beside this test
// (tests/host/CMakeLists.txt); and what a plugin registers against what its manifest declares:
// either difference is a warning kept with the plugin's record, and a lookup that finds nothing
// names the plugin that declared the key and what became of it (rejected, or loaded without
// registering it).
#include <gtest/gtest.h>

#include <fstream>

#include <plugin_host.hpp>
#include <stream/error.hpp>

#include "zoo_host.hpp"

using namespace stream;
using namespace stream::host;
namespace fs = std::filesystem;

namespace {

PluginHostOptions options(const std::vector<std::string>& ids, const std::vector<std::string>& bundled = {}) {
  return stream::test::zoo_options(ids, bundled);
}
using stream::test::record;

}  // namespace

TEST(PluginHost, EveryBrokenPluginIsRejectedWithItsReasonWhileAGoodOneLoads) {
  const std::vector<std::pair<std::string, std::string>> broken{
      {"bad-manifest", "malformed JSON"},
      {"missing-library", "library file not found"},
      {"no-symbol", "no entry symbol 'stream_plugin_descriptor'"},
      {"id-mismatch", "differs from the manifest id"},
      {"throws", "registration failed: zoo plugin refuses to register"},
      // The first 5,000 bytes of libzoo_good.so: the R E segment at 0x2000 lies past the end.
      {"truncated", "truncated: a loadable segment ends at byte"},
  };
  std::vector<std::string> ids{"good"};
  for (const auto& [id, why] : broken) ids.push_back(id);
  PluginHost host(options(ids));
  host.load_all();
  EXPECT_EQ(record(host, "good").status, PluginStatus::Loaded);
  for (const auto& [id, why] : broken) {
    const auto& r = record(host, id);
    EXPECT_EQ(r.status, PluginStatus::Rejected) << id;
    EXPECT_NE(r.reason.find(why), std::string::npos) << id << ": " << r.reason;
  }
  // The good plugin's registrations are there; the one that threw left nothing behind.
  EXPECT_NE(host.registries().onnx_parser("GoodOp"), nullptr);
  EXPECT_EQ(host.registries().blocks().find("zoo_partial"), nullptr);
  EXPECT_EQ(host.registries().block("GoodOp").description, "built by good");
}

TEST(PluginHost, LibrariesOpenOnlyWhenSomethingTheyProvideIsNeeded) {
  PluginHost host(options({"good", "lazy"}));
  EXPECT_EQ(record(host, "good").status, PluginStatus::Discovered);
  EXPECT_EQ(record(host, "lazy").status, PluginStatus::Discovered);
  EXPECT_NE(host.registries().onnx_parser("GoodOp"), nullptr);
  EXPECT_EQ(record(host, "good").status, PluginStatus::Loaded);
  EXPECT_EQ(record(host, "lazy").status, PluginStatus::Discovered);  // never needed, never opened
  EXPECT_EQ(record(host, "lazy").library, nullptr);
  EXPECT_EQ(host.registries().onnx_parser("NobodyProvidesThis"), nullptr);
  EXPECT_EQ(record(host, "lazy").status, PluginStatus::Discovered);
}

TEST(PluginHost, HigherPriorityWinsWhateverTheDiscoveryOrder) {
  for (const auto& order : {std::vector<std::string>{"conflict-high", "conflict-low"},
                            std::vector<std::string>{"conflict-low", "conflict-high"}}) {
    PluginHost host(options(order));
    ASSERT_NE(host.registries().onnx_parser("Conflict"), nullptr);  // loads both plugins
    const auto* e = host.registries().onnx_parsers().find("Conflict");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->provenance.plugin_id, "conflict-high");
    EXPECT_EQ(host.registries().block("Conflict").description, "built by conflict-high");
  }
}

TEST(PluginHost, TiesGoToTheLaterDiscoveredPlugin) {
  {
    PluginHost host(options({"conflict-tie-a", "conflict-tie-b"}));
    EXPECT_EQ(host.registries().block("Tie").description, "built by conflict-tie-b");
  }
  {
    PluginHost host(options({"conflict-tie-b", "conflict-tie-a"}));
    EXPECT_EQ(host.registries().block("Tie").description, "built by conflict-tie-a");
    const auto conflicts = host.registries().conflicts();
    ASSERT_FALSE(conflicts.empty());
    EXPECT_EQ(conflicts.front().second.winner.plugin_id, "conflict-tie-a");
    EXPECT_EQ(conflicts.front().second.losers.front().plugin_id, "conflict-tie-b");
  }
}

TEST(PluginHost, AllowListLimitsNonBundledPluginsOnly) {
  auto o = options({"good", "lazy"}, {"conflict-low"});
  o.allow = std::set<std::string>{"lazy"};
  PluginHost host(std::move(o));
  EXPECT_EQ(record(host, "good").status, PluginStatus::Disabled);
  EXPECT_EQ(record(host, "good").reason, "not in STREAM_PLUGINS");
  EXPECT_EQ(record(host, "lazy").status, PluginStatus::Discovered);
  EXPECT_TRUE(record(host, "conflict-low").bundled);
  host.load_all();
  EXPECT_EQ(record(host, "conflict-low").status, PluginStatus::Loaded);
  EXPECT_EQ(host.registries().onnx_parser("GoodOp"), nullptr);

  auto empty = options({"good"}, {"conflict-low"});
  empty.allow = std::set<std::string>{};  // STREAM_PLUGINS="": bundled only
  PluginHost only_bundled(std::move(empty));
  only_bundled.load_all();
  EXPECT_EQ(record(only_bundled, "good").status, PluginStatus::Disabled);
  EXPECT_EQ(record(only_bundled, "conflict-low").status, PluginStatus::Loaded);
}

TEST(PluginHost, ManifestFieldsAreChecked) {
  const auto dir = fs::temp_directory_path() / "stream-manifest-test";
  fs::create_directories(dir);
  auto write = [&](const std::string& text) {
    auto p = dir / "m.stream-plugin.json";
    std::ofstream(p) << text;
    return p;
  };
  EXPECT_THROW((void)read_manifest(write("[1, 2]")), Error);
  EXPECT_THROW((void)read_manifest(write(R"({"id": "x", "version": "1", "abi_version": 1})")), Error);  // no library
  EXPECT_THROW((void)read_manifest(write(R"({"id": "x", "version": "1", "abi_version": -1, "library": "l"})")), Error);
  auto m = read_manifest(write(
      R"({"id": "x", "version": "1", "abi_version": 1, "library": "l.so", "priority": 3,
          "provides": {"frontends": [{"name": "f", "extensions": [".f"]}], "onnx_ops": ["A", "B"]}})"));
  EXPECT_EQ(m.priority, 3);
  EXPECT_EQ(m.frontends.at(0).extensions, (std::vector<std::string>{".f"}));
  EXPECT_EQ(m.onnx_ops.size(), 2u);
  EXPECT_EQ(m.abi_minor, 0u);  // absent: a manifest of ABI 1.0, which had no "abi_minor"
  EXPECT_EQ(read_manifest(write(R"({"id": "x", "version": "1", "abi_version": 1, "abi_minor": 3, "library": "l"})")).abi_minor, 3u);
  // 2^32 + 1 must not wrap to 1; a string is no version.
  EXPECT_THROW((void)read_manifest(write(R"({"id": "x", "version": "1", "abi_version": 1, "abi_minor": 4294967297, "library": "l"})")), Error);
  EXPECT_THROW((void)read_manifest(write(R"({"id": "x", "version": "1", "abi_version": 1, "abi_minor": "1", "library": "l"})")), Error);
  try {
    (void)read_manifest(write(R"({"id": "x")"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.where().file.find("m.stream-plugin.json"), std::string::npos);
  }
  fs::remove_all(dir);
}

TEST(PluginHost, EnvironmentGivesSearchPathAndAllowList) {
  ::setenv("STREAM_PLUGIN_PATH", "/a:/b::/c", 1);
  ::setenv("STREAM_PLUGINS", " x, y ,,", 1);
  auto o = PluginHostOptions::from_environment({"/d"});
  EXPECT_EQ(o.extra_dirs, (std::vector<fs::path>{"/a", "/b", "/c", "/d"}));  // env first, then --plugin-dir
  ASSERT_TRUE(o.allow.has_value());
  EXPECT_EQ(*o.allow, (std::set<std::string>{"x", "y"}));
  ASSERT_EQ(o.bundled_dirs.size(), 1u);
  EXPECT_EQ(o.bundled_dirs[0].filename(), "plugins");
  ::setenv("STREAM_PLUGINS", "", 1);
  EXPECT_TRUE(PluginHostOptions::from_environment({}).allow->empty());  // bundled only
  ::unsetenv("STREAM_PLUGINS");
  ::unsetenv("STREAM_PLUGIN_PATH");
  EXPECT_FALSE(PluginHostOptions::from_environment({}).allow.has_value());
}

// ---------------- registrations against the manifest's declarations ----------------

namespace {

using stream::test::zoo;
using stream::test::zoo_options;

std::string manifest_of(const std::string& id) { return (zoo(id) / (id + ".stream-plugin.json")).string(); }

}  // namespace

TEST(PluginDeclarations, ARegistrationTheManifestDoesNotDeclareIsAWarning) {
  PluginHost host(zoo_options({"undeclared"}));
  // Declared: UndeclOp (block and ONNX op). Registered: those two and the block UndeclaredOp.
  EXPECT_EQ(host.registries().blocks().find("UndeclaredOp"), nullptr);  // not declared: no lookup opens the plugin
  ASSERT_NE(host.registries().onnx_parser("UndeclOp"), nullptr);
  const auto& r = record(host, "undeclared");
  EXPECT_EQ(r.status, PluginStatus::Loaded);
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"registers blocks 'UndeclaredOp' that its manifest does not "
                                                  "declare; it is found only once the plugin is loaded for "
                                                  "something else"}));
  EXPECT_NE(host.registries().blocks().find("UndeclaredOp"), nullptr);  // kept: only a warning
}

TEST(PluginDeclarations, ADeclarationNeverRegisteredIsAWarningAndNamedWhenLookedUp) {
  PluginHost host(zoo_options({"never-registered", "good"}));
  // Declared ONNX ops: NeverRegOp and NeverParsedOp; registered: NeverRegOp only.
  EXPECT_EQ(host.registries().onnx_parser("NeverParsedOp"), nullptr);
  const auto& r = record(host, "never-registered");
  EXPECT_EQ(r.status, PluginStatus::Loaded);
  EXPECT_EQ(r.warnings,
            (std::vector<std::string>{"declares onnx_ops 'NeverParsedOp' in its manifest but does not register it"}));
  EXPECT_EQ(host.registries().why_absent(Category::OnnxOp, "NeverParsedOp"),
            "plugin 'never-registered' (" + manifest_of("never-registered") +
                ") declares it in its manifest but did not register it");
  EXPECT_TRUE(record(host, "good").warnings.empty());
  // Nobody declares it: nothing to say.
  EXPECT_EQ(host.registries().why_absent(Category::OnnxOp, "NobodysOp"), "");
}

TEST(PluginDeclarations, AMissingBlockNamesThePluginThatWasRejected) {
  PluginHost host(zoo_options({"newer-major", "good"}));
  try {
    (void)host.registries().block("NewMajorOp");
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown block 'NewMajorOp'"), std::string::npos) << what;
    EXPECT_NE(what.find("plugin 'newer-major' (" + manifest_of("newer-major") +
                        ") declares it but was rejected: libzoo_newer_major.so was built for plugin ABI major "
                        "version 2"),
              std::string::npos)
        << what;
  }
}

TEST(PluginDeclarations, NoFrontendForAFileNamesTheRejectedPluginThatClaimsIt) {
  PluginHost host(zoo_options({"future-frontend", "good"}));
  try {
    (void)host.registries().frontend_for("model.zoo");
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no registered frontend can load this file (available: none); plugin 'future-frontend' (" +
                        manifest_of("future-frontend") +
                        ") declares it but was rejected: manifest declares plugin ABI 7.0, this host speaks 1.1"),
              std::string::npos)
        << what;
  }
}
