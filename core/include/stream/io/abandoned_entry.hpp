// Files and folders a killed process left behind (SIGKILL, a power cut: no handler runs), named
// "<prefix><pid>-...": the atomic file writer's temporaries and the result directory's staging
// folders. An entry is abandoned once its process, on this host, no longer exists; one of a live
// process (or of another host, whose prefix differs) is left alone.
#pragma once

#include <sys/types.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <optional>
#include <string>

namespace stream::io {

/// The pid in `name` when `name` is "<prefix><pid>-..." and that process is gone; else nothing.
inline std::optional<long> abandoned_by(const std::string& name, const std::string& prefix) {
  if (name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  long pid = 0;
  const char* first = name.data() + prefix.size();
  const auto [end, err] = std::from_chars(first, name.data() + name.size(), pid);
  if (err != std::errc{} || end == first || end == name.data() + name.size() || *end != '-' || pid <= 0) return std::nullopt;
  if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) return std::nullopt;
  return pid;
}

}  // namespace stream::io
