// The options of `--layout choose` (choice.hpp), gathered from a first pass's groups.
//
// A node's preferred order of a tensor is the order in which its affine map walks the tensor's
// axes under the tiling: the node's loops are walked with the tiled dims (those a steady-state
// iteration covers only partly) outermost, then the others, each set in the node's dim order
// (d0 outermost); an axis is placed by the innermost walked loop its expression uses (loops of
// extent 1 do not count), and axes placed alike keep the model's order. The innermost axis is the
// one the innermost loop steps, so the node reads (or writes) along memory. For the readers of a
// column tile this is the box's order of prices.hpp (the tiled axis outermost); for a
// matmul reading K transposed it puts K's reduction axis innermost or outermost as its loops do.
//
// A tensor's options, in order: the layouts without a conversion (a computed tensor: the model's,
// then per producer and per reader its walk order and that order's blocked variants, identical
// layouts once; a graph input or constant: the model's alone), then the conversions (an input:
// from the model's layout into each of those layouts; a computed tensor: from its first
// producer's walk order into each reader's layout), each on a core and then on the DMA, where the
// hardware has them.
#pragma once

#include <cstddef>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/layout.hpp"
#include "stream/allocate/allocation_milp.hpp"
#include "stream/ir/workload.hpp"
#include "stream/layout/choice.hpp"
#include "stream/schedule/steady_state.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::layout {

/// What the options are gathered from, per group of a first pass: its workload, its tiling, its
/// schedule and allocation (the run's groups, viewed without the run's other figures, so that the
/// layout model does not depend on the pipeline that runs it).
struct ScheduledGroup {
  const Workload& workload;
  const tiling::TiledGroup& tiled;
  const schedule::SteadyState& schedule;
  const allocate::Allocation& allocation;
};

/// The order node `node` of `group` walks `tensor` in under `tiled` (the group's one-iteration
/// tiling, same node indices); row-major is returned as the empty order.
[[nodiscard]] STREAM_API Layout walk_layout(const Workload& group, const tiling::TiledGroup& tiled, std::size_t node,
                                            const Tensor& tensor);

/// The blocked variants of that walk order (NCHWc-style): one per axis of `tensor` the node covers
/// only partly in one steady-state iteration with a tile t that divides the axis (1 < t < extent):
/// the walk order with the axis's blocks where the axis stands and its t elements within a block
/// innermost. A reader of channel tiles c of an NCHW tensor walked (1,0,2,3) gets (1,0,2,3,1:c).
[[nodiscard]] STREAM_API std::vector<Layout> blocked_layouts(const Workload& group, const tiling::TiledGroup& tiled,
                                                             std::size_t node, const Tensor& tensor);

/// Every tensor some solved group moves to or from the off-chip core, in order of first transfer,
/// with its options priced by their transfer cycles (conversion costs are the caller's: they need
/// a run of the conversion group). Graph outputs get the model's option only.
[[nodiscard]] std::vector<LayoutChoice> layout_candidates(const std::vector<ScheduledGroup>& groups,
                                                                     const hardware::Accelerator& accelerator);

}  // namespace stream::layout
