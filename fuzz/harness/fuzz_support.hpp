// What every libFuzzer harness shares: a scratch file for readers that take a path, and the rule
// that a clean stream::Error is the expected answer to bad input while anything else (another
// exception, a sanitizer report, a hang, an out-of-memory) is a bug that libFuzzer reports.
#pragma once

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <fstream>
#include <string>

#include <stream/error.hpp>

namespace stream::fuzz {

/// The input as text (YAML and JSON readers take a string).
inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// A per-process directory under $TMPDIR for readers that only take a path, removed when the
/// fuzzer exits (libFuzzer ends a bounded run with exit(), which runs static destructors).
inline const std::filesystem::path& scratch_dir() {
  struct Scratch {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("stream-fuzz-" + std::to_string(::getpid()));
    Scratch() { std::filesystem::create_directories(path); }
    ~Scratch() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Scratch dir;
  return dir.path;
}

/// Writes the input to scratch_dir()/name and returns the path.
inline std::filesystem::path scratch_file(const std::string& name, const std::uint8_t* data, std::size_t size) {
  auto path = scratch_dir() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

/// Runs one reader call; stream::Error (a rejected input, with its reason) is a normal outcome.
template <typename Fn>
void expect_clean_outcome(Fn&& fn) {
  try {
    fn();
  } catch (const stream::Error&) {
  }
}

/// Silences the readers' warnings: logging every mutated input costs more than parsing it.
inline void quiet_logs() { spdlog::set_level(spdlog::level::off); }

}  // namespace stream::fuzz
