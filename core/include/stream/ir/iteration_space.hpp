// What a node's maps imply about its loops, derived and never hard-coded per operator.
//
//  - Loop sizes: a dim takes the extent of the tensor axis it indexes alone (outputs are read
//    first, so a Slice's loop has the slice's extent, not the source's); a dim no axis indexes
//    alone takes its extent from window_extents; as a last resort the reference's inference from
//    a windowed axis (s*o + f - p) is used. Reads that disagree are an error unless the input is
//    larger (a sub-range read) or the access is data-dependent or piecewise (a masked read, as a
//    Concat or Pad input).
//  - Iterator kind per dim: SEQUENTIAL when an input carrying state (same shape as an output, or
//    listed in Node::state_inputs) is
//    read at `d + c` (c != 0) and the outputs index d; else PARALLEL when the last output indexes
//    d; else REDUCTION (indexes an input only).
//  - Access relation per operand: explicit overrides first; Gather/Scatter/MoEDispatch/MoECombine
//    read their first input data-dependently; maps with floordiv/mod are piecewise-affine;
//    everything else is affine.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/access.hpp"
#include "stream/ir/node.hpp"

namespace stream {

enum class IteratorKind { Parallel, Reduction, Sequential };

[[nodiscard]] STREAM_API std::string_view name(IteratorKind k);  ///< "parallel", "reduction", "sequential"

struct LoopDim {
  std::string name;
  std::int64_t size = 0;
  IteratorKind iterator = IteratorKind::Parallel;
};

/// Loop sizes of a computation node, one per dim; throws (naming node and operand) when a size
/// cannot be determined or the reads are inconsistent.
[[nodiscard]] STREAM_API std::vector<std::int64_t> loop_sizes(const Node& node);
[[nodiscard]] STREAM_API std::vector<IteratorKind> iterator_kinds(const Node& node);
[[nodiscard]] STREAM_API std::vector<LoopDim> loop_dims(const Node& node);
/// Access relation of operand i (inputs then outputs).
[[nodiscard]] STREAM_API AccessRelation access_relation(const Node& node, std::size_t operand);

}  // namespace stream
