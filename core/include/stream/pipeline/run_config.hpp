// A run-configuration YAML file: the run settings that are neither hardware, workload nor
// mapping, so that a run can be reproduced without a command line or Python.
//
//   constraint_selection:      # every field optional; defaults as constraint_selection.hpp
//     memory_capacity: on
//     object_fifo_depth: on
//     buffer_descriptors: on
//     dma_channels: on
//     pipelining: occupancy    # or span
//   nb_cols_to_use: 8          # columns whose memory cores may stage tensors (default 4)
//
// `stream run --config FILE` reads it; a --constraint-selection or --nb-cols-to-use given as well
// overrides the file's value. Unknown keys and bad values are errors with file:line:column.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "stream/allocate/constraint_selection.hpp"
#include "stream/export.hpp"

namespace stream::pipeline {

struct RunConfig {
  allocate::ConstraintSelection constraints;
  std::optional<int> nb_cols_to_use;
};

/// Throws stream::Error (ValidationError) naming the file and position of every problem.
[[nodiscard]] STREAM_API RunConfig load_run_config(const std::filesystem::path& path);
[[nodiscard]] RunConfig parse_run_config(const std::string& text, const std::string& file_label);

}  // namespace stream::pipeline
