// Block-library helpers beyond whole blocks (workload-spec §4.11): data-movement nodes for
// KV-cache style workloads, and the piecewise-affine key access of sparse attention.
#pragma once

#include <cstdint>
#include <string>

#include <stream/ir/access.hpp>
#include <stream/ir/node.hpp>

namespace stream::blocks {

/// A Slice of x along `axis`: rows start .. start+length-1 (step 1) into a new tensor
/// "<name>_out"; the input map is d_axis + start, the output map the identity.
[[nodiscard]] Node slice_node(const TensorPtr& x, int axis, std::int64_t start, std::int64_t length,
                              const std::string& name);
/// A Gather of `num_indices` rows of x along `axis` (1-D indices, the axis is kept) into
/// "<name>_out". Dims d0..d{r-1} are the output positions, d_r the source row (REDUCTION); the
/// data read is data-dependent (its map only bounds it).
[[nodiscard]] Node gather_node(const TensorPtr& x, int axis, std::int64_t num_indices, const std::string& name);
/// The key access of windowed + dilated sparse attention over dims (i, w): the union of
/// K[i - window + w] (a local window) and K[i - dilation*w] (strided look-back).
[[nodiscard]] AccessRelation sparse_attention_key_access(std::int64_t window, std::int64_t dilation);

}  // namespace stream::blocks
