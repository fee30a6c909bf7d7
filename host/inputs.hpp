// Where the bundled inputs (hardware, mapping and workload examples) are: PREFIX/share/stream/inputs
// (host_prefix.hpp) in an install, the source tree's inputs/ in the build tree.
//
// The one rule for an input path, used by every command (run, parse, validate, sweep, core-cost,
// cost), the Python module and the MCP server: a relative path is looked for
//   1. as given, relative to the working directory;
//   2. under the bundled inputs (`hardware/simba.yaml` is inputs/hardware/simba.yaml);
//   3. when its first part is `inputs`, under the bundled inputs without that part, so that the
//      repository paths the docs write (`inputs/sweeps/...`) work from any directory.
// An absolute path is only itself. A path found nowhere is a bad-input error that lists every
// place tried (docs/validate.md, "Input paths").
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

namespace stream::host {

[[nodiscard]] std::filesystem::path bundled_inputs_dir();

/// The places `path` is looked for, in the rule's order, without repeats.
[[nodiscard]] std::vector<std::filesystem::path> input_candidates(const std::filesystem::path& path);

/// The first of input_candidates that exists, or nullopt.
[[nodiscard]] std::optional<std::filesystem::path> find_input(const std::filesystem::path& path);

/// find_input's answer; when nothing exists, throws stream::Error (bad input, exit 2) naming the path
/// and every place tried. An empty path is returned unchanged (the caller's default applies).
[[nodiscard]] std::filesystem::path resolve_input(const std::filesystem::path& path);

}  // namespace stream::host
