#include "stream/io/file_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "stream/error.hpp"
#include "stream/io/utf8.hpp"

namespace stream::io {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what, int error) {
  throw Error(what + ": " + std::strerror(error), Location{.file = path.string()}, ErrorKind::Internal);
}

// write(2) may take less than asked (a signal, a pipe, a nearly full disk): loop until all is
// written; a write that takes nothing without an error is a full device as well.
void write_all(int fd, const std::filesystem::path& path, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      ::close(fd);
      fail(path, "cannot write", error);
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

void write_file(const std::filesystem::path& path, std::string_view text, FileMode mode) {
  int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
  if (mode == FileMode::RefuseLink) flags |= O_NOFOLLOW;
  const int fd = ::open(path.c_str(), flags, 0666);
  if (fd < 0) fail(path, "cannot create", errno);
  if (is_valid_utf8(text)) write_all(fd, path, text);
  else write_all(fd, path, to_valid_utf8(text));
  // Some file systems (NFS, quotas) report a failed write only at close.
  if (::close(fd) != 0) fail(path, "cannot write", errno);
}

}  // namespace stream::io
