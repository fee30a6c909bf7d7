// Where a run's results go: DIR/ID, written whole or not at all. The files are written into a
// private staging directory beside the target (DIR/.ID.partial-XXXXXX, so on the same file
// system) and moved into place by one rename once every file is complete; a previous result at
// DIR/ID is exchanged in the same step and then removed. So a failed run leaves the previous
// result untouched, an interrupted one at most a hidden staging directory, and a new result never
// shares its directory with files of an earlier one (the group_* of a run with more groups).
// An interrupted run removes its staging directory (the host's signal watcher calls
// remove_live_staging_directories); one killed outright leaves it, and the next run for the same
// target removes it once its process is gone.
// Nothing in the target is followed: a symbolic link at DIR/ID or inside it is replaced or
// removed as a link, never written through.
#pragma once

#include <filesystem>
#include <string>

#include "stream/export.hpp"

namespace stream::report {

/// Throws a stream::Error (bad input) naming `id` unless it is exactly one directory entry: not
/// empty, not "." or "..", no '/', no control character, at most 255 bytes.
STREAM_API void check_experiment_id(const std::string& id);

/// `text` made usable as one directory entry (for ids built from file names and parameters):
/// every '/', '\\' and control character becomes '_', and "", "." and ".." become "_".
[[nodiscard]] STREAM_API std::string as_path_component(std::string text);

/// Removes every staging directory of this process not yet committed. For the host's handler of
/// SIGINT/SIGTERM/SIGHUP, which runs it on its own thread (not in a signal handler) and then
/// lets the signal end the process.
STREAM_API void remove_live_staging_directories();

class STREAM_API StagedResultDirectory {
 public:
  /// Creates `target`'s parent when missing, and the staging directory in it: done before any
  /// work, so an output that cannot be written is found first. Throws a stream::Error naming the
  /// path that cannot be created, or the target when it exists and is not a directory.
  explicit StagedResultDirectory(std::filesystem::path target);
  StagedResultDirectory(const StagedResultDirectory&) = delete;
  StagedResultDirectory& operator=(const StagedResultDirectory&) = delete;
  ~StagedResultDirectory();  ///< removes the staging directory unless it was committed

  [[nodiscard]] const std::filesystem::path& staging() const { return staging_; }
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }

  /// Where `staged` (a path inside the staging directory) is once committed; other paths unchanged.
  [[nodiscard]] std::filesystem::path final_path(const std::filesystem::path& staged) const;

  /// Moves the staging directory to the target (exchanging it with a previous result, which is
  /// then removed); throws a stream::Error naming the target when it cannot.
  void commit();

 private:
  void replace_existing_target();

  std::filesystem::path target_;
  std::filesystem::path staging_;
  bool committed_ = false;
};

}  // namespace stream::report
