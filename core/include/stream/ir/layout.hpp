// Data layouts: the order in which a tensor's axes are laid out in memory (the seed's "Data
// layout", decided after layout operators are folded into their readers).
//
// A layout lists the tensor's axes from the outermost (largest stride) to the innermost
// (contiguous). One axis may be blocked (NCHWc): it then appears twice in the order, first for its
// blocks and then, further in, for the elements within a block of `block.size`; the block size
// must divide the axis extent. An empty order means row-major (the model's own order: axis 0
// outermost), the layout every tensor has unless a layout choice gives it another, so a default
// Layout is valid for any rank. NCHW is row-major for a rank-4 tensor; NHWC is (0, 2, 3, 1); NCHW8c
// is (0, 1, 2, 3, 1) with block {1, 8}.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"

namespace stream {

struct AxisBlock {
  int axis = 0;
  std::int64_t size = 1;  ///< elements of the axis per block
  bool operator==(const AxisBlock&) const = default;
};

struct STREAM_API Layout {
  std::vector<int> order;  ///< axes outermost first; empty = row-major
  std::optional<AxisBlock> block;

  [[nodiscard]] static Layout row_major(std::size_t rank);
  /// The explicit order for a tensor of `rank` axes (0..rank-1 when the order is empty).
  [[nodiscard]] std::vector<int> order_for(std::size_t rank) const;
  /// True when the layout stores a tensor of `rank` axes in row-major order, unblocked.
  [[nodiscard]] bool is_row_major(std::size_t rank) const;
  /// "(0,2,3,1)", blocked "(0,1,2,3,1:8)" (the within-block occurrence carries the block size).
  [[nodiscard]] std::string str(std::size_t rank) const;
  /// Equal as layouts of a tensor of `rank` axes (an empty order equals the explicit row-major).
  [[nodiscard]] bool same_as(const Layout& other, std::size_t rank) const;
};

/// Throws stream::Error naming `tensor` when `layout` is not a layout of a tensor of `shape`: an
/// axis missing, out of range or repeated (the blocked axis exactly twice), or a block size that is
/// not positive or does not divide its axis.
STREAM_API void check_layout(const Layout& layout, const std::vector<std::int64_t>& shape, const std::string& tensor);

}  // namespace stream
