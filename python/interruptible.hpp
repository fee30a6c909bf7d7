// Ctrl-C during mapping="optimize?...": as `stream run` does, the first interrupt stops the
// optimizer's search and keeps the best found (its Result says cut_short) instead of losing the
// budget spent. The run goes on in a thread of its own with the GIL released while the calling
// thread, taking the GIL every 50 ms, lets Python see the signal (PyErr_CheckSignals): a run
// holding the calling thread for minutes would otherwise only see the KeyboardInterrupt after it.
#pragma once

#include <atomic>
#include <functional>

#include "run_experiment.hpp"

namespace stream::python {

/// Runs `run(cancel)` (call with the GIL held). A KeyboardInterrupt sets `cancel` and the run's
/// outcome is returned, with a RuntimeWarning saying so (the optimizer keeps the automatic
/// mapping when interrupted before its search); a run that stops without a result
/// (pipeline::Cancelled) raises the KeyboardInterrupt. Any other exception of a signal handler is
/// raised once the run has stopped.
[[nodiscard]] host::RunOutcome run_keeping_best_on_interrupt(
    const std::function<host::RunOutcome(const std::atomic<bool>* cancel)>& run);

}  // namespace stream::python
