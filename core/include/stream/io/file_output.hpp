// Writing one result file so that its success can be believed: every step (open, each write,
// close) is checked, so a full disk, /dev/full or a vanished directory is a stream::Error naming
// the file (ErrorKind::Internal: the host exits 1), never a run that reports results and leaves
// empty or cut files behind. The text is written as valid UTF-8 (io/utf8.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "stream/export.hpp"

namespace stream::io {

enum class FileMode {
  FollowLink,  ///< create or truncate; a symbolic link at the path is followed (a path the user chose)
  RefuseLink,  ///< create or truncate; a symbolic link at the path is an error (files inside a result directory)
};

/// Writes `text` to `path`; throws stream::Error with the path and the system's reason on any failure.
STREAM_API void write_file(const std::filesystem::path& path, std::string_view text, FileMode mode = FileMode::FollowLink);

/// A file written piece by piece, with write_file's checks: a sweep's results of 10^4 points go
/// out without being held as one text. Each piece is written as valid UTF-8, so a piece must not
/// split a character. close() reports what the system reports only at close; a writer destroyed
/// without close() (an exception on the way) closes without checking.
class STREAM_API FileWriter {
 public:
  explicit FileWriter(const std::filesystem::path& path, FileMode mode = FileMode::FollowLink);
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  void write(std::string_view text);
  /// Writes what is buffered and has the system put the file on its disk (fsync), so that a
  /// rename publishing it (io/atomic_file.hpp) never shows a name whose content is still missing.
  void sync();
  void close();

 private:
  void flush();
  std::filesystem::path path_;
  int fd_ = -1;
  std::string buffer_;
};

}  // namespace stream::io
