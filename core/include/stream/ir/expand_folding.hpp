// Folding broadcast copies into their readers: a frontend lowers a broadcast (torch's expand, the
// repeat in a repeat_kv) to an "Expand" computation that reads X with size-1 axes pinned to 0 and
// writes each axis of Y with one bare loop; fold_expands removes such a node when Y has readers and
// all of them are computations. Each reader then reads X directly through the composition of its
// map of Y with the Expand's map of X, and a reader loop that indexed a Y axis alone but no longer
// indexes any operand axis alone keeps that axis's extent as a window extent. An Expand is folded
// all-or-nothing: it stays (a data-movement computation) when an edge reads Y (Y is a graph output)
// or a rewritten reader no longer validates or sizes its loops. Expands are processed from the last
// to the first, so a chain of them folds.
#pragma once

#include <vector>

#include "stream/export.hpp"
#include "stream/ir/node.hpp"

namespace stream {

/// Returns the nodes with every foldable Expand computation removed (see above); the order of the
/// remaining nodes is kept.
[[nodiscard]] STREAM_API std::vector<Node> fold_expands(std::vector<Node> nodes);

}  // namespace stream
