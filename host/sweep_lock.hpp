// One sweep at a time writes an output directory. Two sweeps (or merges) into one --out would
// both rewrite results.jsonl at their end, and one would read the other's half-made file ("point
// N has no row"). So a sweep holds an exclusive flock on DIR/.stream-sweep.lock from before it reads
// the rows already there until its last file is written; the file records who holds it (pid,
// host, since when), and a second sweep says so and stops (exit 2) without touching the files.
// The lock goes with the process however it ends (a kill included); the file stays, unlocked.
#pragma once

#include <filesystem>

namespace stream::host {

class SweepOutputLock {
 public:
  /// Takes the lock of `dir` (which exists); throws stream::Error (bad input) naming the holder
  /// when another process has it, or ErrorKind::Internal when the lock file cannot be made.
  explicit SweepOutputLock(const std::filesystem::path& dir);
  ~SweepOutputLock();
  SweepOutputLock(const SweepOutputLock&) = delete;
  SweepOutputLock& operator=(const SweepOutputLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace stream::host
