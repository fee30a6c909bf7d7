// A result file that is whole or not there: a kill, a full disk or a power cut at any moment
// leaves at the path either its previous complete version (or nothing) or the new complete one,
// never a report cut short or a CSV that stops at a row boundary and looks complete.
//
// The text goes to a temporary file beside the target (.NAME.partial-HOST-PID-N, in the same
// directory, so on the same file system), is put on the disk (fsync), and is renamed over the
// target by commit(); the directory is then synced so that the rename itself is on the disk.
// A writer destroyed without commit() (an error on the way) removes its temporary file; a process
// killed outright leaves it, and the next writer of the same target removes those whose process,
// on this host, is gone. The rename replaces a symbolic link at the target, never writes through.
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>

#include "stream/export.hpp"

namespace stream::io {

class FileWriter;

class STREAM_API AtomicFileWriter {
 public:
  /// Creates the temporary file; throws stream::Error (ErrorKind::Internal) naming it when it cannot.
  explicit AtomicFileWriter(std::filesystem::path target);
  ~AtomicFileWriter();  ///< removes the temporary file unless committed
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  /// As FileWriter::write: a piece is written as valid UTF-8 and must not split a character.
  void write(std::string_view text);
  /// Syncs the temporary file, renames it over the target and syncs the directory; throws
  /// stream::Error naming the file on any failure (the target is then unchanged).
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::unique_ptr<FileWriter> file_;
  bool committed_ = false;
};

/// `text` written to `path` through an AtomicFileWriter.
STREAM_API void write_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace stream::io
