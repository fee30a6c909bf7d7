// What Ctrl-C (SIGINT), SIGTERM and SIGHUP do to a run: the signal still ends the process, as
// the shell and a job scheduler expect (exit status 128 + signal), but first the partial results
// of the run are removed, so an interrupted run leaves the previous complete result or nothing.
// The cleanup is ordinary code on a watcher thread that waits for the signals (sigwait), not a
// signal handler: removing a directory tree is not async-signal-safe.
#pragma once

#include <atomic>

namespace stream::host {

/// Blocks the three signals in the calling thread, and so in every thread it starts later, and
/// starts the watcher. Call once, first thing in main, before any other thread exists.
void watch_interrupts();

/// From now on the first SIGINT only sets `flag` (a work that can stop early and keep what it has,
/// as the mapping optimizer keeps its best); a second one, or SIGTERM/SIGHUP, ends the process as
/// above. `flag` must outlive the process's run (a static).
void stop_softly(std::atomic<bool>* flag);

}  // namespace stream::host
