// Where the bundled inputs (hardware, mapping and workload examples) are: PREFIX/share/stream/inputs
// (host_prefix.hpp) in an install, the source tree's inputs/ in the build tree.
#pragma once

#include <filesystem>

namespace stream::host {

[[nodiscard]] std::filesystem::path bundled_inputs_dir();
/// `path` itself when it exists, else the same relative path under the bundled inputs (so
/// `--hardware hardware/simba.yaml` works from anywhere); unchanged when neither exists.
[[nodiscard]] std::filesystem::path resolve_input(const std::filesystem::path& path);

}  // namespace stream::host
