#include "stream/report/result_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#include <spdlog/spdlog.h>

#include "stream/error.hpp"
#include "stream/io/abandoned_entry.hpp"

namespace stream::report {

namespace fs = std::filesystem;

namespace {

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }

// The id as the message shows it: control characters as \xNN, so the message itself stays readable.
std::string shown(const std::string& id) {
  std::string out;
  for (char c : id) {
    if (!is_control(c)) {
      out += c;
      continue;
    }
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
    out += hex;
  }
  return out;
}

[[noreturn]] void fail(const fs::path& path, const std::string& what, int error) {
  throw Error(what + ": " + std::strerror(error), Location{.file = path.string()}, ErrorKind::Internal);
}

// The staging directories of this process not yet committed or removed, for an interrupted run
// to remove (remove_live_staging_directories, called from the host's signal watcher thread).
std::mutex live_mutex;
std::set<std::string>& live_staging() {
  static std::set<std::string> live;
  return live;
}

// The staging directories of `target` start with this: hidden, telling whose result it is (the
// id shortened so that the whole name stays within NAME_MAX), and whose process made it (host
// and pid), so that a later run can tell an abandoned one from one still being written.
std::string staging_prefix(const fs::path& target) {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return "." + target.filename().string().substr(0, 160) + ".partial-" + as_path_component(host).substr(0, 40) + "-";
}

fs::path make_staging(const fs::path& target) {
  std::string path = (target.parent_path() / (staging_prefix(target) + std::to_string(::getpid()) + "-XXXXXX")).string();
  std::vector<char> buffer(path.begin(), path.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr) fail(target.parent_path(), "cannot create a directory for the results", errno);
  return fs::path(buffer.data());
}

// A run killed before it committed leaves its staging directory behind; the next run for the
// same target removes it (io/abandoned_entry.hpp).
void remove_abandoned_staging(const fs::path& target) {
  const std::string prefix = staging_prefix(target);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(target.parent_path(), ec)) {
    const auto pid = io::abandoned_by(entry.path().filename().string(), prefix);
    if (!pid) continue;
    std::error_code removed;
    fs::remove_all(entry.path(), removed);  // symbolic links are removed, not followed
    if (!removed) spdlog::info("removed {}, left by an interrupted run (process {})", entry.path().string(), *pid);
  }
}

void forget(const fs::path& staging) {
  const std::lock_guard lock(live_mutex);
  live_staging().erase(staging.string());
}

}  // namespace

void check_experiment_id(const std::string& id) {
  std::string problem;
  if (id.empty()) problem = "is empty";
  else if (id == "." || id == "..") problem = "is '" + id + "'";
  else if (id.find('/') != std::string::npos) problem = "contains '/'";
  else if (id.size() > 255) problem = "is longer than 255 bytes";
  else
    for (char c : id)
      if (is_control(c)) problem = "contains a control character";
  if (!problem.empty())
    throw Error("--experiment-id '" + shown(id) + "' " + problem +
                ": it must be one directory name (the results go to <out>/<id>)");
}

std::string as_path_component(std::string text) {
  for (char& c : text)
    if (c == '/' || c == '\\' || is_control(c)) c = '_';
  if (text.empty() || text == "." || text == "..") return "_";
  return text;
}

StagedResultDirectory::StagedResultDirectory(fs::path target) : target_(std::move(target)) {
  if (target_.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(target_.parent_path(), ec);
    if (ec && fs::exists(target_.parent_path()) && !fs::is_directory(target_.parent_path()))
      fail(target_.parent_path(), "cannot hold the results", ENOTDIR);
    if (ec) fail(target_.parent_path(), "cannot create the output directory", ec.value());
  } else {
    target_ = fs::path(".") / target_;
  }
  std::error_code ec;
  const auto st = fs::symlink_status(target_, ec);
  if (fs::exists(st) && !fs::is_directory(st) && !fs::is_symlink(st))
    throw Error("exists and is not a directory, so it cannot hold the results", Location{.file = target_.string()});
  remove_abandoned_staging(target_);
  staging_ = make_staging(target_);
  const std::lock_guard lock(live_mutex);
  live_staging().insert(staging_.string());
}

StagedResultDirectory::~StagedResultDirectory() {
  forget(staging_);
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);  // symbolic links are removed, not followed
}

fs::path StagedResultDirectory::final_path(const fs::path& staged) const {
  const auto inside = staged.lexically_relative(staging_);
  if (inside.empty() || *inside.begin() == "..") return staged;
  return inside == "." ? target_ : target_ / inside;
}

void StagedResultDirectory::commit() {
  // mkdtemp made the staging directory private (0700); the result gets the usual permissions.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(staging_.c_str(), 0777 & ~mask);
  if (::rename(staging_.c_str(), target_.c_str()) == 0) {
    committed_ = true;
    forget(staging_);
    return;
  }
  if (errno != EEXIST && errno != ENOTEMPTY && errno != ENOTDIR && errno != EISDIR)
    fail(target_, "cannot move the results into place", errno);
  forget(staging_);  // from here it holds the previous result, which is removed either way
  replace_existing_target();
  committed_ = true;
}

// A previous result (or a symbolic link) at the target: exchange the two in one step, so the
// target always holds one complete result, then remove the old one (now at the staging path).
void StagedResultDirectory::replace_existing_target() {
  std::error_code ec;
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS) fail(target_, "cannot replace the previous results", errno);
    // A file system without the exchange: move the old result (or link) aside first, in two steps.
    const fs::path aside = make_staging(target_);
    if (fs::is_symlink(fs::symlink_status(target_, ec))) ::rmdir(aside.c_str());  // a link cannot replace a directory
    if (::rename(target_.c_str(), aside.c_str()) != 0) fail(target_, "cannot replace the previous results", errno);
    if (::rename(staging_.c_str(), target_.c_str()) != 0) fail(target_, "cannot move the results into place", errno);
    staging_ = aside;
  }
  fs::remove_all(staging_, ec);
  if (ec) spdlog::warn("could not remove the previous results moved to {}: {}", staging_.string(), ec.message());
}

void remove_live_staging_directories() {
  const std::lock_guard lock(live_mutex);
  for (const auto& path : live_staging()) {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  live_staging().clear();
}

}  // namespace stream::report
