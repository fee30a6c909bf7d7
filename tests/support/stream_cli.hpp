// What the tests that drive the built `stream` executable share: running it through the shell and
// reading the files it writes. Header-only; tests/CMakeLists.txt puts this folder on every test
// executable's include path.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace stream::test {

/// Exit code (-1 when the process did not exit normally) and captured output.
struct CliResult {
  int code = -1;
  std::string out;
};

enum class Stderr { Merge, Discard };

/// Runs a shell command line; `out` is its stdout.
inline CliResult run_command(const std::string& cmd) {
  CliResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) r.out += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs `<build>/bin/stream <args>`; `out` is stdout, with stderr merged in or discarded.
inline CliResult run_stream(const std::string& args, Stderr err = Stderr::Merge) {
  return run_command("'" + std::string(STREAM_BUILD_DIR) + "/bin/stream' " + args +
                     (err == Stderr::Merge ? " 2>&1" : " 2>/dev/null"));
}

/// The whole content of a file ("" when it is missing).
/// An empty folder for one test's files: STREAM_BUILD_DIR/test_scratch/<area>/<name>, emptied first.
inline std::filesystem::path fresh_scratch_dir(const std::string& area, const std::string& name) {
  const auto p = std::filesystem::path(STREAM_BUILD_DIR) / "test_scratch" / area / name;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

inline std::string read(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace stream::test
