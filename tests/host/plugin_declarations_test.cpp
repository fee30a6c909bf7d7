// What a plugin registers against what its manifest declares: either difference is a warning kept
// with the plugin's record, and a lookup that finds nothing names the plugin that declared the key
// and what became of it (rejected, or loaded without registering it).
#include <gtest/gtest.h>

#include <plugin_host.hpp>
#include <stream/error.hpp>

#include "zoo_host.hpp"

using namespace stream;
using namespace stream::host;
using stream::test::record;
using stream::test::zoo;
using stream::test::zoo_options;

namespace {

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
