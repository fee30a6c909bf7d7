#include "sweep_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <string>

#include <stream/error.hpp>

namespace stream::host {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void lock_failure(const fs::path& file, const std::string& what, int error) {
  throw Error(what + ": " + std::strerror(error), Location{.file = file.string()}, ErrorKind::Internal);
}

// "process 1234 on host h since 2026-12-06T07:00:00Z": what the holder writes into the file.
std::string holder_line() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  const std::time_t now = std::time(nullptr);
  char when[32] = {};
  std::tm utc{};
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &utc));
  return "process " + std::to_string(::getpid()) + " on host " + host + " since " + when + "\n";
}

// The holder as its file tells (it may not have written it yet).
std::string holder_of(int fd) {
  char buffer[512] = {};
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  std::string text(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text.empty() ? "another process (it has not said which yet)" : text;
}

}  // namespace

SweepOutputLock::SweepOutputLock(const fs::path& dir) {
  const fs::path file = dir / ".stream-sweep.lock";
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) lock_failure(file, "cannot create the sweep's lock file", errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string holder = error == EWOULDBLOCK ? holder_of(fd_) : "";
    ::close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK) lock_failure(file, "cannot lock the sweep's output directory", error);
    throw Error("another sweep or merge is writing this directory (" + holder +
                    "): wait for it to finish, or give another --out",
                Location{.file = dir.string()});
  }
  const std::string line = holder_line();
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, line.data(), line.size(), 0) != static_cast<ssize_t>(line.size())) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    lock_failure(file, "cannot write the sweep's lock file", error);
  }
}

SweepOutputLock::~SweepOutputLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace stream::host
