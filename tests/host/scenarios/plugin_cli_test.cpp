// `stream` with a rejected plugin in the user's --plugin-dir: as docs/plugins.md promises, a broken
// plugin never breaks a run that does not need it (a warning names it and the reason, exit 0);
// a run that needs what only it declares fails with exit 2 and the same reason.
#include <gtest/gtest.h>

#include "stream_cli.hpp"
#include "../zoo_host.hpp"

namespace {

std::string plugin_dir(const std::string& id) { return " --plugin-dir '" + stream::test::zoo(id).string() + "'"; }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(PluginCli, ARejectedPluginIsSkippedWithAWarningWhenTheRunDoesNotNeedIt) {
  // future-abi's manifest (ABI 7.0) is rejected at discovery, before anything is loaded.
  const auto r = stream::test::run_stream("parse --block attention --format json" + plugin_dir("future-abi"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "future-abi.stream-plugin.json rejected: manifest declares plugin ABI 7.0, this host speaks 1.1"))
      << r.out;
}

TEST(PluginCli, ARunThatNeedsARejectedPluginExitsWith2AndSaysWhy) {
  const auto r = stream::test::run_stream("parse --block NewMajorOp" + plugin_dir("newer-major"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r.out, "unknown block 'NewMajorOp'")) << r.out;
  EXPECT_TRUE(has(r.out, "plugin 'newer-major' (")) << r.out;
  EXPECT_TRUE(has(r.out, "declares it but was rejected: libzoo_newer_major.so was built for plugin ABI major version 2, "
                         "this host speaks ABI 1.1"))
      << r.out;
}

TEST(PluginCli, PluginsListsTheRejectionAndExitsWith0) {
  const auto r = stream::test::run_stream(plugin_dir("newer-major") + " plugins --load --format json",
                                          stream::test::Stderr::Discard);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "\"reason\": \"libzoo_newer_major.so was built for plugin ABI major version 2")) << r.out;
}
