// A pre-flight check of a shared library's ELF structure before the dynamic loader maps it.
// The loader maps segments straight from the file and trusts the headers, so a truncated library
// (a half-copied plugin, a full disk during install) kills the process with SIGBUS on the first
// touch of a page past the end of the file. This check reads only the headers, with bounds
// checks, and says what is wrong: not an ELF file, not this machine's class/byte order/machine,
// or a program header, segment, section header or section that lies beyond the file's end.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace stream::host {

/// Why `file` cannot be a loadable shared library for this process, or nullopt when its
/// headers are consistent with its size.
[[nodiscard]] std::optional<std::string> elf_defect(const std::filesystem::path& file);

}  // namespace stream::host
