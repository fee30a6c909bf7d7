// Private: the core schema reader shared by load_core_file and the accelerator reader (inline
// cores and referenced core files).
#pragma once

#include <optional>
#include <string>

#include "stream/hardware/core.hpp"
#include "stream/yaml/yaml_reader.hpp"

namespace stream::hardware::detail {

/// Reads one core description (the mapping at `root`). `label` prefixes messages ("core 3" for a
/// core of an accelerator, empty for a standalone core file). Returns nullopt when any error was
/// recorded while reading it.
[[nodiscard]] std::optional<Core> read_core_node(const YAML::Node& root, const yamlx::Ctx& ctx, const std::string& label);

/// The supported `<namespace>.<kind>` combinations, for messages.
[[nodiscard]] const char* supported_core_types();

}  // namespace stream::hardware::detail
