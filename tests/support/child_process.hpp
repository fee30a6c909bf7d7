// Running `stream` as a child process that a test can kill at a moment of its choosing (the
// sweep fault tests): started with posix_spawn, its stdout and stderr into a file, ended with
// SIGKILL, waited for. Header-only; tests/CMakeLists.txt puts this folder on every test's include path.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace stream::test {

/// Starts `<build>/bin/stream args...` with stdout and stderr appended to `log`; returns its pid
/// (-1 when it cannot start).
inline pid_t spawn_stream(const std::vector<std::string>& args, const std::filesystem::path& log) {
  const std::string program = std::string(STREAM_BUILD_DIR) + "/bin/stream";
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  if (posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

/// Waits for `pid`; its exit code, or 128 + the signal that ended it.
inline int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Ends `pid` with SIGKILL (no handler runs, as a kill -9 or the OOM killer) and waits for it;
/// returns what wait_for returns (its exit code when it had finished before the signal).
inline int kill_and_wait(pid_t pid) {
  ::kill(pid, SIGKILL);
  return wait_for(pid);
}

}  // namespace stream::test
