// Contiguous runs: how a box of a tensor lies in memory under the tensor's layout.
//
// A transfer moves a box (one range per axis) of a tensor between memories; under the tensor's
// layout (ir/layout.hpp) the box is a set of contiguous runs, which is what a DMA engine pays for
// (a setup per descriptor, a burst granularity). The layout turns the tensor into memory dims,
// outermost first: an unblocked axis is one dim of its extent; a blocked axis two, its blocks
// (extent / block) and the elements within a block (block). Walking the memory dims from the
// innermost, a run takes each dim the box covers fully and then the first one it covers partly;
// the dims further out (those where the box spans more than one index) repeat the run. A box range
// on a blocked axis that does not start and end on block boundaries is cut into up to three
// pieces (the partial first block, the whole blocks, the partial last block), each a box in memory
// dims; the runs of different pieces are counted separately even where two happen to touch.
//
// Examples (rank 4, [N, C, H, W] = [1, 8, 4, 4]): the whole tensor is 1 run of 128 under any
// unblocked layout; channels 0..3 are 1 run of 64 under NCHW and 16 runs of 4 under NHWC.
#pragma once

#include <cstdint>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/layout.hpp"

namespace stream {

struct AxisRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;  ///< exclusive
};

/// One piece of a box: `runs()` runs of `run` elements each.
struct STREAM_API RunPiece {
  std::int64_t run = 0;  ///< elements per contiguous run
  /// The box's extents on the memory dims outside the run, innermost first, extents of 1 left out:
  /// the strides a DMA descriptor walks to repeat the run.
  std::vector<std::int64_t> outer;
  [[nodiscard]] std::int64_t runs() const;
};

struct STREAM_API RunCount {
  std::vector<RunPiece> pieces;  ///< none for an empty box
  [[nodiscard]] std::int64_t runs() const;
  [[nodiscard]] std::int64_t elements() const;
  [[nodiscard]] std::int64_t longest_run() const;  ///< 0 for an empty box
  /// DMA descriptors when one descriptor repeats a run over up to `strides` nested memory dims:
  /// runs() for 0 strides, 1 per piece once `strides` covers every outer dim.
  [[nodiscard]] std::int64_t descriptors(int strides) const;
  /// Bursts of `burst_bits` when every run starts a new burst: sum of ceil(run bits / burst_bits).
  [[nodiscard]] std::int64_t bursts(std::int64_t element_bits, std::int64_t burst_bits) const;
};

/// The runs of `box` (one range per axis, within `shape`) of a tensor of `shape` laid out as
/// `layout`. Throws stream::Error when the box's rank differs from the shape's, a range leaves the
/// shape or is reversed, or the layout does not fit the shape (check_layout).
[[nodiscard]] STREAM_API RunCount count_runs(const Layout& layout, const std::vector<std::int64_t>& shape,
                                  const std::vector<AxisRange>& box);

/// The box of `extents` at the origin (what a steady-state transfer moves: one tile).
[[nodiscard]] STREAM_API RunCount count_runs(const Layout& layout, const std::vector<std::int64_t>& shape,
                                  const std::vector<std::int64_t>& extents);

}  // namespace stream
