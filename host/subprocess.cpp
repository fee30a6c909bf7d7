#include "subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>

extern char** environ;

namespace stream::host {

namespace {

// Both ends of a pipe, closed on scope exit (the parent closes the write end after the spawn).
struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (::pipe2(fd, O_CLOEXEC) != 0) fd[0] = fd[1] = -1;
  }
  ~Pipe() {
    for (int& f : fd) close_end(f);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  static void close_end(int& f) {
    if (f >= 0) ::close(f);
    f = -1;
  }
};

// Reads both pipes until each reaches end of file.
void drain(int out_fd, int err_fd, std::string& out, std::string& err) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  std::array<std::string*, 2> into{&out, &err};
  std::array<char, 4096> buf{};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].fd < 0 || fds[k].revents == 0) continue;
      const auto n = ::read(fds[k].fd, buf.data(), buf.size());
      if (n > 0) into[k]->append(buf.data(), static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR) fds[k].fd = -1;  // end of file (or a broken pipe)
    }
  }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv) {
  ProcessResult r;
  if (argv.empty()) return r;
  Pipe out, err;
  if (out.fd[0] < 0 || err.fd[0] < 0) {
    r.err = std::string("cannot create a pipe: ") + std::strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The host blocks SIGINT, SIGTERM and SIGHUP in every thread (interrupt.hpp); the child gets
  // them back, as a program run from a shell has them.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0].c_str(), &actions, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  Pipe::close_end(out.fd[1]);
  Pipe::close_end(err.fd[1]);
  if (rc != 0) {
    r.err = std::strerror(rc);
    return r;
  }
  r.started = true;
  drain(out.fd[0], err.fd[0], r.out, r.err);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace stream::host
