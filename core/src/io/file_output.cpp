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
  FileWriter file(path, mode);
  file.write(text);
  file.close();
}

FileWriter::FileWriter(const std::filesystem::path& path, FileMode mode) : path_(path) {
  int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
  if (mode == FileMode::RefuseLink) flags |= O_NOFOLLOW;
  fd_ = ::open(path.c_str(), flags, 0666);
  if (fd_ < 0) fail(path, "cannot create", errno);
}

FileWriter::~FileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void FileWriter::write(std::string_view text) {
  if (is_valid_utf8(text)) buffer_ += text;
  else buffer_ += to_valid_utf8(text);
  if (buffer_.size() >= (std::size_t{1} << 16)) flush();
}

void FileWriter::flush() {
  const int fd = fd_;
  fd_ = -1;  // write_all closes it when it fails
  write_all(fd, path_, buffer_);
  fd_ = fd;
  buffer_.clear();
}

void FileWriter::sync() {
  if (fd_ < 0) return;
  flush();
  if (::fsync(fd_) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    fail(path_, "cannot write", error);
  }
}

void FileWriter::close() {
  if (fd_ < 0) return;  // closed already, or failed (and reported) on the way
  flush();
  const int fd = fd_;
  fd_ = -1;
  // Some file systems (NFS, quotas) report a failed write only at close.
  if (::close(fd) != 0) fail(path_, "cannot write", errno);
}

}  // namespace stream::io
