// `stream sweep submit`: a subcommand of `stream sweep` (commands/sweep.cpp adds it) that writes
// a sweep's Slurm job array and merge job and submits them (slurm_submit.hpp).
#pragma once

#include "../command.hpp"

namespace stream::host {

/// Adds `submit` to the `sweep` subcommand.
void add_sweep_submit(CLI::App& sweep);

}  // namespace stream::host
