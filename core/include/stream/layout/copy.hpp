// Copying a whole tensor from one layout into another element by element: what a layout
// conversion done by a strided DMA engine reads and writes (docs/layout.md, "A conversion on the
// DMA").
//
// The engine walks the elements in one layout's memory order, so that side is one contiguous
// run, and the other side is what that walk makes of it: a run is the walk's innermost dims that
// are contiguous in the other layout too (one element when the walk's innermost dim is not
// innermost there), repeated over the remaining dims, innermost first, where dims that lie
// consecutively in the other layout merge into one (one descriptor stride walks them both).
// Axes blocked by either layout are split into their blocks and the elements within a block, and
// an axis blocked by both must have nested block sizes (one divides the other).
//
// Example: K [32, 64] from row-major to (1,0) (a transpose), walking the target's order: the
// write is 1 run of 2,048; the read steps axis 0 innermost, 64 elements apart, so it is 2,048
// runs of 1, repeated over [32, 64] (RunPiece::outer). Into (1,0,1:8) instead, within-block
// elements innermost: the read keeps runs of 8 (axis 1 innermost in both), over [32, 8].
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/layout.hpp"
#include "stream/ir/layout_runs.hpp"

namespace stream::layout {

/// The read of the source and the write of the target, as runs (one piece each).
struct CopyRuns {
  RunCount read;
  RunCount write;
};

/// The runs of copying a tensor of `shape` from layout `from` into layout `to`, walking the
/// elements in `to`'s memory order when `walk_target` (the write is one run) and in `from`'s
/// otherwise (the read is one run). Nullopt when both layouts block one axis with sizes neither
/// of which divides the other. Throws stream::Error when a layout does not fit the shape.
[[nodiscard]] STREAM_API std::optional<CopyRuns> copy_runs(const Layout& from, const Layout& to,
                                                          const std::vector<std::int64_t>& shape, bool walk_target);

}  // namespace stream::layout
