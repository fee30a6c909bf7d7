#include "inputs.hpp"

#include <algorithm>
#include <string>
#include <system_error>

#include <stream/error.hpp>

#include "host_prefix.hpp"

namespace stream::host {

namespace fs = std::filesystem;

fs::path bundled_inputs_dir() {
  std::error_code ec;
  const fs::path installed = host_prefix() / "share" / "stream" / "inputs";
  if (fs::is_directory(installed, ec)) return fs::weakly_canonical(installed, ec);
#ifdef STREAM_SOURCE_INPUTS_DIR
  return STREAM_SOURCE_INPUTS_DIR;
#else
  return {};
#endif
}

std::vector<fs::path> input_candidates(const fs::path& path) {
  std::vector<fs::path> out{path};
  if (path.empty() || path.is_absolute()) return out;
  const fs::path bundled = bundled_inputs_dir();
  if (bundled.empty()) return out;
  auto add = [&](const fs::path& p) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  add(bundled / path);
  // `inputs/x` is how the repository (and every doc) names the bundled file x.
  if (auto first = path.begin(); first != path.end() && *first == "inputs" && std::next(first) != path.end()) {
    fs::path rest;
    for (auto it = std::next(first); it != path.end(); ++it) rest /= *it;
    add(bundled / rest);
  }
  return out;
}

std::optional<fs::path> find_input(const fs::path& path) {
  std::error_code ec;
  for (const auto& candidate : input_candidates(path))
    if (fs::exists(candidate, ec)) return candidate;
  return std::nullopt;
}

fs::path resolve_input(const fs::path& path) {
  if (path.empty()) return path;
  if (auto found = find_input(path)) return *found;
  std::string tried;
  std::error_code ec;
  for (const auto& candidate : input_candidates(path)) {
    const fs::path shown = candidate.is_absolute() ? candidate : fs::absolute(candidate, ec);
    tried += (tried.empty() ? "" : ", ") + (ec ? candidate : shown).lexically_normal().string();
  }
  throw Error("no such file (tried " + tried + ")", Location{.file = path.string()});
}

}  // namespace stream::host
