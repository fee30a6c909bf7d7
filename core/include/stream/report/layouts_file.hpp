// group_<i>/layouts.yaml: every tensor the group moves to or from off-chip memory, its layout,
// the alternatives' costs (layout/prices.hpp), which option `--layout choose` chose with
// the options' first-pass costs (layout/choice.hpp), and the conversions inserted
// (under `--layout fixed`, which keeps the model's layouts and prices them, none).
//
// Written only where a layout can change a figure: the accelerator declares a DMA model on some
// connection, some tensor of the group is not row-major, or the run chose layouts. Elsewhere every
// layout prices the same (bits / bandwidth), and the result directory is what it was before
// layouts existed.
#pragma once

#include <string>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

/// True when layouts.yaml is written for `group` on `accelerator` (see above).
[[nodiscard]] STREAM_API bool layouts_matter(const pipeline::GroupResult& group, const hardware::Accelerator& accelerator);

[[nodiscard]] STREAM_API std::string layouts_yaml(const pipeline::RunResult& run, const pipeline::GroupResult& group,
                                                 const hardware::Accelerator& accelerator);

}  // namespace stream::report
