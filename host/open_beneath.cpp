#include "open_beneath.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <stream/error.hpp>

namespace stream::host {

namespace {

// O_NONBLOCK: a FIFO planted in the directory must not hang the open (the caller checks for a
// regular file on the descriptor).
constexpr int kFileFlags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;

[[noreturn]] void refuse(const std::string& relative, const std::string& why) {
  throw Error(why, Location{.file = relative});
}

std::vector<std::string> components(const std::string& relative) {
  std::vector<std::string> parts;
  for (std::size_t at = 0; at <= relative.size();) {
    const auto slash = std::min(relative.find('/', at), relative.size());
    if (slash > at) parts.push_back(relative.substr(at, slash - at));  // "a//b" and "./" are harmless
    at = slash + 1;
  }
  return parts;
}

void check_text(const std::string& relative) {
  if (relative.size() > kMaxBeneathPathBytes)
    refuse(relative.substr(0, 64) + "...", "the path is " + std::to_string(relative.size()) + " bytes long; at most " +
                                               std::to_string(kMaxBeneathPathBytes) + " are accepted");
  if (relative.empty() || relative.front() == '/' || relative.find('\0') != std::string::npos)
    refuse(relative, "give a relative path: only files under the output directory can be read");
  for (const auto& part : components(relative))
    if (part == "..") refuse(relative, "a path with '..' can lead out: only files under the output directory can be read");
  if (components(relative).empty()) refuse(relative, "no such result file");
}

// The kernel's answer for a path that failed to open, in words.
[[noreturn]] void refuse_errno(const std::string& relative, int err) {
  if (err == ELOOP || err == EXDEV)
    refuse(relative, "the path is or passes through a symbolic link: only files under the output directory can be read");
  if (err == ENOENT || err == ENOTDIR) refuse(relative, "no such result file");
  refuse(relative, std::string("cannot open the result file: ") + std::strerror(err));
}

// openat2 resolves the whole path in the kernel; -1 with errno ENOSYS where it does not exist
// (Linux before 5.6, or a seccomp filter that refuses it).
int openat2_beneath(int dirfd, const std::string& relative) {
  open_how how{};
  how.flags = static_cast<unsigned long long>(kFileFlags);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof how));
}

// The same without openat2: every directory on the way opened with O_NOFOLLOW from the one
// before, so a component swapped for a symlink fails (ELOOP, or ENOTDIR for a symlink to a file).
int walk_beneath(int dirfd, const std::string& relative) {
  const auto parts = components(relative);
  int at = dirfd;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const int next = openat(at, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int err = errno;
    struct stat st {};
    // O_DIRECTORY answers a symlink with ENOTDIR: say what it was.
    if (next < 0 && err == ENOTDIR && fstatat(at, parts[i].c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
      err = ELOOP;
    if (at != dirfd) close(at);
    if (next < 0) {
      errno = err;
      return -1;
    }
    at = next;
  }
  const int fd = openat(at, parts.back().c_str(), kFileFlags | O_NOFOLLOW);
  const int err = errno;
  if (at != dirfd) close(at);
  errno = err;
  return fd;
}

}  // namespace

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) close(fd_);
}

FileDescriptor open_beneath(const std::string& dir, const std::string& relative, Resolution how) {
  check_text(relative);
  const FileDescriptor root(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (root.get() < 0) refuse(relative, "no such result file (the output directory does not exist yet)");
  int fd = -1;
  errno = ENOSYS;
  if (how == Resolution::Kernel) fd = openat2_beneath(root.get(), relative);
  if (fd < 0 && (errno == ENOSYS || errno == EPERM)) fd = walk_beneath(root.get(), relative);
  if (fd < 0) refuse_errno(relative, errno);
  return FileDescriptor(fd);
}

}  // namespace stream::host
