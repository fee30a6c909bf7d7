#include "inputs.hpp"

#include <system_error>

#include "host_prefix.hpp"

namespace stream::host {

std::filesystem::path bundled_inputs_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path installed = host_prefix() / "share" / "stream" / "inputs";
  if (fs::is_directory(installed, ec)) return fs::weakly_canonical(installed, ec);
#ifdef STREAM_SOURCE_INPUTS_DIR
  return STREAM_SOURCE_INPUTS_DIR;
#else
  return {};
#endif
}

std::filesystem::path resolve_input(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) || path.is_absolute()) return path;
  const auto bundled = bundled_inputs_dir() / path;
  if (std::filesystem::exists(bundled, ec)) return bundled;
  return path;
}

}  // namespace stream::host
