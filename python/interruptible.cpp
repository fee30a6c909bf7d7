#include "interruptible.hpp"

#include <chrono>
#include <future>
#include <optional>

#include <pybind11/pybind11.h>

namespace stream::python {

namespace py = pybind11;

namespace {

// The pending exception of a signal handler, if any (with the GIL held).
std::optional<py::error_already_set> signal_exception() {
  if (PyErr_CheckSignals() == 0) return std::nullopt;
  return py::error_already_set();  // fetches and clears it
}

}  // namespace

host::RunOutcome run_keeping_best_on_interrupt(const std::function<host::RunOutcome(const std::atomic<bool>* cancel)>& run) {
  std::atomic<bool> cancel{false};
  std::future<host::RunOutcome> outcome;
  {
    py::gil_scoped_release release;
    outcome = std::async(std::launch::async, [&] { return run(&cancel); });
  }
  std::optional<py::error_already_set> raised;
  for (;;) {
    {
      py::gil_scoped_release release;
      if (outcome.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready) break;
    }
    if (raised) continue;
    raised = signal_exception();
    if (raised) cancel = true;  // the optimizer stops after the candidates being evaluated
  }
  if (!raised) return outcome.get();
  if (!raised->matches(PyExc_KeyboardInterrupt)) {  // another handler's exception, once the run stopped
    raised->restore();
    throw py::error_already_set();
  }
  try {
    auto result = outcome.get();
    if (PyErr_WarnEx(PyExc_RuntimeWarning, "interrupted: the mapping optimizer stopped and kept the best found so far", 1) != 0)
      throw py::error_already_set();
    return result;
  } catch (const pipeline::Cancelled&) {  // stopped without a result: nothing to keep
    raised->restore();
    throw py::error_already_set();
  }
}

}  // namespace stream::python
