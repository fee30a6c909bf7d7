// group_<i>/layouts.yaml: every tensor the group moves to or from off-chip memory, its layout,
// the alternatives' costs (layout/prices.hpp), which option `--layout choose` chose with the
// options' first-pass costs (layout/choice.hpp), and the conversions inserted (under `--layout
// fixed`, which keeps the model's layouts and prices them, none). Every figure is the run's
// (GroupResult::layout_prices, RunResult::layout): nothing is priced while writing.
//
// Written for the groups the run priced (GroupResult::layout_prices set): where a layout can
// change a figure (layout::layouts_matter: the accelerator declares a DMA model on some
// connection, or some tensor of the group is not row-major) or the run chose layouts. Elsewhere
// every layout prices the same (bits / bandwidth), and the result directory is what it was before
// layouts existed.
#pragma once

#include <string>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

/// The group's layouts.yaml (empty `tensors` when the run did not price the group).
[[nodiscard]] STREAM_API std::string layouts_yaml(const pipeline::RunResult& run, const pipeline::GroupResult& group,
                                                 const hardware::Accelerator& accelerator);

}  // namespace stream::report
