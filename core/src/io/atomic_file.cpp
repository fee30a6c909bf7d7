#include "stream/io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "stream/error.hpp"
#include "stream/io/file_output.hpp"
#include "stream/io/abandoned_entry.hpp"

namespace stream::io {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail_atomic(const fs::path& path, const std::string& what, int error) {
  throw Error(what + ": " + std::strerror(error), Location{.file = path.string()}, ErrorKind::Internal);
}

// The temporary files of `target` start with this: hidden, naming the file they will become and
// the host whose processes write them (a shared file system has several), then the pid.
std::string temporary_prefix(const fs::path& target) {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::string h(host);
  for (char& c : h)
    if (c == '/' || static_cast<unsigned char>(c) < 0x20) c = '_';
  return "." + target.filename().string().substr(0, 160) + ".partial-" + h.substr(0, 40) + "-";
}

// Left by a process killed before it committed (io/abandoned_entry.hpp).
void remove_abandoned_temporaries(const fs::path& target) {
  const std::string prefix = temporary_prefix(target);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!abandoned_by(entry.path().filename().string(), prefix)) continue;
    std::error_code removed;
    fs::remove(entry.path(), removed);
  }
}

// Unique within the process (several writers may target one name from several threads) and,
// with the pid and host in the prefix, on the file system.
fs::path temporary_for(const fs::path& target) {
  static std::atomic<unsigned long> counter{0};
  return target.parent_path() / (temporary_prefix(target) + std::to_string(::getpid()) + "-" + std::to_string(++counter));
}

// The directory's entry for the renamed file reaches the disk only when the directory is synced.
void sync_directory(const fs::path& target) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail_atomic(dir, "cannot open the directory to sync it", errno);
  const int synced = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  // Some file systems cannot sync a directory (EINVAL); the rename is then as durable as they allow.
  if (synced != 0 && error != EINVAL) fail_atomic(dir, "cannot sync the directory", error);
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(fs::path target) : target_(std::move(target)) {
  remove_abandoned_temporaries(target_);
  temporary_ = temporary_for(target_);
  file_ = std::make_unique<FileWriter>(temporary_, FileMode::RefuseLink);
}

AtomicFileWriter::~AtomicFileWriter() {
  file_.reset();
  if (committed_) return;
  std::error_code ec;
  fs::remove(temporary_, ec);
}

void AtomicFileWriter::write(std::string_view text) { file_->write(text); }

void AtomicFileWriter::commit() {
  file_->sync();
  file_->close();
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) fail_atomic(target_, "cannot move the file into place", errno);
  committed_ = true;
  sync_directory(target_);
}

void write_file_atomically(const fs::path& path, std::string_view text) {
  AtomicFileWriter file(path);
  file.write(text);
  file.commit();
}

}  // namespace stream::io
