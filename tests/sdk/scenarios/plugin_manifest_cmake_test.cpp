// stream_add_plugin()'s manifest step (cmake/StreamPlugin.cmake, stream_plugin_manifest) run by
// `cmake -P`: the configured manifest gets the SDK's "abi_version" and "abi_minor", a template that
// states them is overridden with a warning, and a template that is not a JSON object is an error.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

struct Run {
  int code = -1;
  std::string out;
};

// Runs stream_plugin_manifest on `template_text` in a fresh directory, with the ABI 4.2.
Run configure(const std::string& name, const std::string& template_text, fs::path& output) {
  const auto dir = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "sdk" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "p.stream-plugin.json.in") << template_text;
  output = dir / "out" / "p.stream-plugin.json";
  std::ofstream(dir / "run.cmake") << "include(" STREAM_SOURCE_DIR "/cmake/StreamPlugin.cmake)\n"
                                   << "set(STREAM_PLUGIN_ABI_VERSION 4)\nset(STREAM_PLUGIN_ABI_MINOR 2)\n"
                                   << "set(STREAM_PLUGIN_LIBRARY libp.so)\n"
                                   << "stream_plugin_manifest(p ${CMAKE_CURRENT_LIST_DIR}/p.stream-plugin.json.in "
                                   << output.string() << ")\n";
  Run r;
  const auto cmd = "cd '" + dir.string() + "' && cmake -P run.cmake 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::array<char, 4096> buf{};
  while (pipe && fgets(buf.data(), buf.size(), pipe.get())) r.out += buf.data();
  r.code = WEXITSTATUS(pclose(pipe.release()));
  // CMake wraps a message's lines (at a width that depends on the paths in it): one line again.
  std::string flat;
  for (char c : r.out) {
    const bool space = c == '\n' || c == ' ';
    if (!space || (!flat.empty() && flat.back() != ' ')) flat += space ? ' ' : c;
  }
  r.out = flat;
  return r;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST(PluginManifestCmake, TheAbiFieldsComeFromTheSdk) {
  fs::path out;
  const auto r = configure("abi-written", R"({"id": "p", "version": "1", "library": "@STREAM_PLUGIN_LIBRARY@"})", out);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto m = read_json(out);
  EXPECT_EQ(m["abi_version"], 4);
  EXPECT_EQ(m["abi_minor"], 2);
  EXPECT_EQ(m["library"], "libp.so");  // the template is configured too
  EXPECT_EQ(r.out.find("Warning"), std::string::npos) << r.out;
}

TEST(PluginManifestCmake, ATemplateThatStatesTheAbiIsOverriddenWithAWarning) {
  fs::path out;
  const auto r = configure("abi-stated", R"({"id": "p", "version": "1", "abi_version": 1, "library": "l.so"})", out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(read_json(out)["abi_version"], 4);
  EXPECT_NE(r.out.find("states \"abi_version\"; stream_add_plugin() writes it from the SDK"), std::string::npos) << r.out;
}

TEST(PluginManifestCmake, ATemplateThatIsNoJsonObjectIsAnError) {
  fs::path out;
  const auto r = configure("not-json", R"(["id", "p"])", out);
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("is not a JSON object"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out));
}
