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

std::atomic<std::atomic<bool>*> soft_stop{nullptr};

[[noreturn]] void watch(sigset_t set) {
  int sig = 0;
  for (;;) {
    while (sigwait(&set, &sig) != 0) {
    }
    std::atomic<bool>* flag = soft_stop.exchange(nullptr);
    if (sig != SIGINT || flag == nullptr) break;
    flag->store(true);
    std::fprintf(stderr, "\nstream: interrupted; stopping after the candidates being evaluated and keeping the best found "
                         "(interrupt again to abort)\n");
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

void stop_softly(std::atomic<bool>* flag) { soft_stop.store(flag); }

void watch_interrupts() {
  const sigset_t set = interrupt_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(watch, set).detach();
}

}  // namespace stream::host
