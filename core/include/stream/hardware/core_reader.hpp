// Reading core files (spec §1.2): the reference's core YAML, unchanged.
//
// The reader accepts what the reference's reader (PyYAML + Cerberus) accepts: YAML 1.1 scalars
// (integers written with underscores such as `16_777_216`, `True`/`False`/`yes`/`no`), a key given
// twice in one mapping takes the later value (with a warning naming both lines), and unknown keys
// are errors. It validates the ZigZag schema (memories, ports, operational array, dataflows, the
// Stream extension keys operator_types and operand_precision) or the aie2 schema, depending on
// `type` (`<namespace>.<kind>`; a bare kind or a missing type means zigzag, default kind compute).
// Every problem is collected with its file:line:column before the reader gives up.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "stream/diagnostics/diagnostics.hpp"
#include "stream/export.hpp"
#include "stream/hardware/core.hpp"

namespace stream::hardware {

/// Reads and validates a core file. Throws ValidationError listing every problem; warnings go to
/// spdlog (and to `diagnostics` when given).
[[nodiscard]] STREAM_API Core load_core_file(const std::filesystem::path& path, Diagnostics* diagnostics = nullptr);

/// Same, from YAML text; `file_label` is used in messages and as the core's source_file.
[[nodiscard]] STREAM_API Core parse_core_text(const std::string& text, const std::string& file_label,
                                              Diagnostics* diagnostics = nullptr);

/// Non-throwing form: records problems in `diagnostics`; returns the core when it had no error.
[[nodiscard]] std::optional<Core> read_core_file(const std::filesystem::path& path, Diagnostics& diagnostics);

}  // namespace stream::hardware
