// The options of `--layout choose` (layout_choice.hpp), gathered from a first pass's groups.
//
// A node's preferred order of a tensor is the order in which its affine map walks the tensor's
// axes under the tiling: the node's loops are walked with the tiled dims (those a steady-state
// iteration covers only partly) outermost, then the others, each set in the node's dim order
// (d0 outermost); an axis is placed by the innermost walked loop its expression uses (loops of
// extent 1 do not count), and axes placed alike keep the model's order. The innermost axis is the
// one the innermost loop steps, so the node reads (or writes) along memory. For the readers of a
// column tile this is the box's order of layout_prices.hpp (the tiled axis outermost); for a
// matmul reading K transposed it puts K's reduction axis innermost or outermost as its loops do.
#pragma once

#include <cstddef>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/layout.hpp"
#include "stream/pipeline/layout_choice.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::pipeline {

/// The order node `node` of `group` walks `tensor` in under `tiled` (the group's one-iteration
/// tiling, same node indices); row-major is returned as the empty order.
[[nodiscard]] STREAM_API Layout walk_layout(const Workload& group, const tiling::TiledGroup& tiled, std::size_t node,
                                            const Tensor& tensor);

/// Every tensor some solved group moves to or from the off-chip core, in order of first transfer,
/// with its options priced by their transfer cycles (conversion costs are the caller's: they need
/// a run of the conversion group). Graph outputs get the model's option only.
[[nodiscard]] std::vector<LayoutChoice> layout_candidates(const std::vector<GroupResult>& groups,
                                                                     const hardware::Accelerator& accelerator);

}  // namespace stream::pipeline
