#include "environment_failure.hpp"

#include <cerrno>
#include <cstring>
#include <new>
#include <string_view>
#include <system_error>

#include <stream/error.hpp>

namespace stream::host {

namespace {

// The system's reasons that say the machine is short of something, not that the input is wrong.
constexpr int kEnvironmentErrors[] = {ENOMEM, ENOSPC, EDQUOT, EIO, EFBIG, EMFILE, ENFILE, EROFS};

bool is_environment_errno(int code) {
  for (int e : kEnvironmentErrors)
    if (code == e) return true;
  return false;
}

// Stream's writers report a failed system call as "<what>: <strerror>" (io/file_output.hpp), an
// internal error: the reason is found in its text.
bool names_environment_reason(std::string_view message) {
  if (message.find("out of memory") != std::string_view::npos) return true;
  for (int e : kEnvironmentErrors)
    if (message.find(std::strerror(e)) != std::string_view::npos) return true;
  return false;
}

}  // namespace

std::optional<std::string> environment_failure(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) return "out of memory (" + std::string(e.what()) + ")";
  if (const auto* s = dynamic_cast<const std::system_error*>(&e)) {
    const auto& category = s->code().category();
    if ((category == std::generic_category() || category == std::system_category()) &&
        is_environment_errno(s->code().value()))
      return std::string(e.what());
  }
  if (const auto* s = dynamic_cast<const Error*>(&e))
    if (s->kind() == ErrorKind::Internal && names_environment_reason(s->message())) return std::string(e.what());
  return std::nullopt;
}

}  // namespace stream::host
