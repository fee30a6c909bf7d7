// Opening a file named by a path relative to a directory so that it cannot lead out of it, with
// no window between the check and the open: resolved by the kernel from a descriptor of the
// directory, refusing every symbolic link and every "..". A check on the path's text followed by
// an open by name (the MCP read_result_file tool did that) follows a symlink swapped in between:
// 3 of 3,000 reads returned a file outside the output directory.
#pragma once

#include <cstddef>
#include <string>

namespace stream::host {

/// Longest relative path accepted (PATH_MAX): a longer one is refused before any work.
inline constexpr std::size_t kMaxBeneathPathBytes = 4096;

/// An open file descriptor, closed when it goes.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor();
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

/// How the path is resolved: Kernel is openat2, or the walk where the kernel lacks it; Walk is the
/// walk alone (so that tests cover it on a kernel with openat2).
enum class Resolution { Kernel, Walk };

/// Opens `relative` (read-only, non-blocking, close-on-exec) beneath the directory `dir`: with
/// openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) where the kernel has it, else component by
/// component with openat(O_NOFOLLOW). Throws stream::Error (bad input, the file being
/// `relative`) when the path is empty, absolute, longer than kMaxBeneathPathBytes, has a ".."
/// component, passes through or ends in a symbolic link, or does not exist.
[[nodiscard]] FileDescriptor open_beneath(const std::string& dir, const std::string& relative,
                                          Resolution how = Resolution::Kernel);

}  // namespace stream::host
