// The SDK round trip a vendor makes: install Stream, build the out-of-tree example plugin against
// the installed package, and see the installed `stream` find it through STREAM_PLUGIN_PATH.
#include <gtest/gtest.h>

#include <runpath_entries.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

int run(const std::string& cmd) { return std::system((cmd + " > /dev/null 2>&1").c_str()); }

std::string capture(const std::string& cmd) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::array<char, 4096> buf{};
  while (pipe && fgets(buf.data(), buf.size(), pipe.get())) out += buf.data();
  return out;
}

}  // namespace

TEST(Sdk, OutOfTreePluginBuildsAgainstAnInstallAndLoads) {
  const fs::path tmp = fs::temp_directory_path() / ("stream-sdk-test-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  const auto prefix = tmp / "prefix";
  ASSERT_EQ(run("cmake --install " STREAM_BUILD_DIR " --prefix " + prefix.string()), 0);
  EXPECT_TRUE(fs::exists(prefix / "bin" / "stream"));
  EXPECT_TRUE(fs::exists(prefix / "include" / "stream" / "plugin" / "plugin.hpp"));
  EXPECT_TRUE(fs::exists(prefix / "lib" / "stream" / "plugins" / "onnx-frontend.stream-plugin.json"));
  EXPECT_TRUE(fs::exists(prefix / "share" / "stream" / "inputs"));

  const auto ex = tmp / "example";
  ASSERT_EQ(run("cmake -S " STREAM_SOURCE_DIR "/examples/custom-op-plugin -B " + ex.string() +
                " -G Ninja -DCMAKE_PREFIX_PATH=" + prefix.string()),
            0);
  ASSERT_EQ(run("cmake --build " + ex.string()), 0);

  const auto listing = capture("env -u STREAM_PLUGINS STREAM_PLUGIN_PATH=" + (ex / "plugins").string() + " " +
                               (prefix / "bin" / "stream").string() + " plugins --load --format json 2>/dev/null");
  const auto plugins = nlohmann::json::parse(listing);
  bool found = false;
  std::set<std::string> bundled;
  for (const auto& p : plugins) {
    if (p["bundled"].get<bool>()) bundled.insert(p["id"].get<std::string>());
    if (p["id"] == "example-custom-op") {
      found = true;
      EXPECT_EQ(p["status"], "loaded") << p.dump();
      EXPECT_EQ(p["priority"], 10);
      EXPECT_EQ(p["provides"]["onnx_ops"], nlohmann::json::array({"MyScale"}));
      ASSERT_EQ(p["provides"]["cost_backends"].size(), 1u) << p.dump();
      EXPECT_EQ(p["provides"]["cost_backends"][0]["name"], "my-vendor");
    }
  }
  EXPECT_TRUE(found) << listing;
  EXPECT_EQ(bundled, (std::set<std::string>{"aie-backend", "blocks", "decompositions", "onnx-frontend", "torch-frontend"}));
  // Installed files and an out-of-tree plugin search no relative directory (stream, the core and
  // five bundled plugins are installed; the example adds one).
  int count = 0;
  for (const auto& b : stream_test::unsafe_runpath_entries(tmp, count)) ADD_FAILURE() << b;
  EXPECT_GE(count, 8);
  fs::remove_all(tmp);
}
