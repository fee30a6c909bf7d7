// The affine maps of a concatenation, shared by every frontend (ONNX Concat, ATen cat/concat).
//
// Loops are the output's axes. Input i fills the output range [offset_i, offset_i + extent_i) along
// the concatenation axis, offset_i being the sum of the earlier inputs' extents, so it is read at
// d_axis - offset_i and equal at every other axis. Each input covers only its own part of the
// output, which its access relation states as a masked (piecewise) read; the output's is derived.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/access.hpp"
#include "stream/ir/affine_map.hpp"
#include "stream/ir/node.hpp"
#include "stream/ir/tensor.hpp"

namespace stream {

struct ConcatLayout {
  std::vector<AffineMap> maps;                                 ///< one per input, then the output's
  std::vector<std::optional<AccessRelation>> access_overrides;  ///< the same order
};

/// The maps of output = concat(inputs, axis), axis already normalised to [0, rank). Throws a
/// stream::Error naming the offending tensor when there is no input, the axis is out of range, an
/// input's rank differs from the output's, an input's extent off the axis differs from the
/// output's, or the inputs' extents along the axis do not add up to the output's.
[[nodiscard]] STREAM_API ConcatLayout concat_layout(const std::vector<TensorPtr>& inputs, const Tensor& output, int axis);

/// A validated "Concat" Computation node over concat_layout's maps and access relations.
[[nodiscard]] STREAM_API Node concat_node(std::string name, std::vector<TensorPtr> inputs, const TensorPtr& output, int axis);

}  // namespace stream
