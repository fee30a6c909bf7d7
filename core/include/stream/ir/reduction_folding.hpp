// Folding a ReduceSum into the contraction that produces its input (after layout folding): when a
// contraction (MatMul, Gemm, Einsum, Conv) computes the reduced axes in parallel loops and nothing
// else reads its output, the sum becomes further reduction loops of the contraction (per-head
// projections summed over the heads become one contraction over heads and head dimension). A
// fold whose node would not validate is not made.
#pragma once

#include <vector>

#include "stream/export.hpp"
#include "stream/ir/node.hpp"

namespace stream {

/// The nodes with every foldable ReduceSum folded into its producing contraction (see above).
[[nodiscard]] STREAM_API std::vector<Node> fold_reductions_into_contractions(std::vector<Node> nodes);

}  // namespace stream
