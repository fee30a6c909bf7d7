// Private: the accelerator reader's entry for a tree already in memory, for hardware overrides,
// which edit a file's tree (with its core files inlined) instead of its text.
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>

#include "stream/diagnostics/diagnostics.hpp"
#include "stream/hardware/accelerator.hpp"

namespace stream::hardware::detail {

/// Reads and validates `root` as an accelerator file named `file_label`; throws ValidationError
/// listing every problem. Diagnostics go to `diagnostics` (echoed as it says).
[[nodiscard]] Accelerator read_accelerator_tree(const YAML::Node& root, const std::string& file_label,
                                                const std::filesystem::path& base_dir, Diagnostics& diagnostics);

}  // namespace stream::hardware::detail
