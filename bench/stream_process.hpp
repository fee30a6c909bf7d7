// One `stream` process of the build tree with the given arguments, stdout and stderr discarded:
// what the start-up, sweep and model benchmarks time. True when it exited 0; `cpu_s`, when given,
// receives the process's user + system CPU seconds; `stderr_path`, when given, receives its stderr
// instead (so that a failing case can say why).
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <string>
#include <vector>

extern char** environ;

namespace stream::bench {

inline bool run_stream_process(std::vector<std::string> args, double* cpu_s = nullptr,
                               const std::string& stderr_path = {}) {
  args.insert(args.begin(), std::string(STREAM_BUILD_DIR) + "/bin/stream");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  const bool keep_stderr = !stderr_path.empty();
  posix_spawn_file_actions_addopen(&actions, 2, keep_stderr ? stderr_path.c_str() : "/dev/null",
                                   keep_stderr ? O_WRONLY | O_CREAT | O_TRUNC : O_WRONLY, 0644);
  pid_t pid = 0;
  int status = 1;
  rusage usage{};
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0) wait4(pid, &status, 0, &usage);
  if (cpu_s != nullptr)
    *cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
             static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  posix_spawn_file_actions_destroy(&actions);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace stream::bench
