// Writing one result file so that its success can be believed: every step (open, each write,
// close) is checked, so a full disk, /dev/full or a vanished directory is a stream::Error naming
// the file (ErrorKind::Internal: the host exits 1), never a run that reports results and leaves
// empty or cut files behind. The text is written as valid UTF-8 (io/utf8.hpp).
#pragma once

#include <filesystem>
#include <string_view>

#include "stream/export.hpp"

namespace stream::io {

enum class FileMode {
  FollowLink,  ///< create or truncate; a symbolic link at the path is followed (a path the user chose)
  RefuseLink,  ///< create or truncate; a symbolic link at the path is an error (files inside a result directory)
};

/// Writes `text` to `path`; throws stream::Error with the path and the system's reason on any failure.
STREAM_API void write_file(const std::filesystem::path& path, std::string_view text, FileMode mode = FileMode::FollowLink);

}  // namespace stream::io
