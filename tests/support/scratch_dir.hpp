// A per-process scratch folder under $TMPDIR that is removed with everything in it when its owner
// goes (for a function-local static: when the test program exits), so repeated test runs leave no
// litter in the machine's temporary folder. The process id in the name keeps parallel ctest runs of
// the same program apart.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace stream::test {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix)
      : path_(std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;  // a cleanup failure must not fail the test that already passed
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace stream::test
