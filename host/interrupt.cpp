#include "interrupt.hpp"

#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>

#include <stream/report/result_directory.hpp>

namespace stream::host {

namespace {

sigset_t interrupt_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
  return set;
}

[[noreturn]] void watch(sigset_t set) {
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  std::fprintf(stderr, "\nstream: interrupted (SIG%s); removing the partial results\n", sigabbrev_np(sig));
  report::remove_live_staging_directories();
  // End the process by the signal itself, so the parent sees how it ended.
  std::signal(sig, SIG_DFL);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  std::raise(sig);
  std::_Exit(128 + sig);  // not reached: the default action of all three ends the process
}

}  // namespace

void watch_interrupts() {
  const sigset_t set = interrupt_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(watch, set).detach();
}

}  // namespace stream::host
