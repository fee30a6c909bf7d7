// What evaluate_mapping() returns: the figures of a run, as Python values. It holds the run's
// summary (the fields of summary.json: total latency in cycles, energy in pJ, EDP, utilisations,
// per group latency, share, energy, status, metrics, memory accesses) plus, per group, its cost
// table (the entries of core_cost_lut.yaml, one dict per (node, core) pair) and the directory
// the result files went to. It pickles (its state is that dict) and its repr shows the figures.
#pragma once

#include <pybind11/pybind11.h>

#include "run_experiment.hpp"

namespace stream::python {

struct RunFigures {
  pybind11::dict data;  ///< summary fields, "groups" as a list with "cost_table", "output_dir"
};

[[nodiscard]] RunFigures run_figures(const host::RunOutcome& outcome);
/// Adds the Result class to `m`.
void register_run_result(pybind11::module_& m);

}  // namespace stream::python
