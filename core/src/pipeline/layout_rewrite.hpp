// The second pass of `--layout choose` (layout_choice.hpp): the first pass's groups with the
// chosen layouts, and the conversion groups.
//
// A tensor a computation writes takes its chosen layout everywhere (the producer's group writes
// it so, the readers' groups read it so). A graph input or constant whose chosen option is a
// conversion keeps its row-major self; its readers read `<tensor>_as_<order>` instead, which the
// conversion group writes: an in-edge of the tensor, one conversion node (an identity copy of type
// kLayoutConversionType whose output has the chosen layout) and an out-edge, so the conversion is
// scheduled, costed and reported like any group and the readers' fused groups keep their shape.
#pragma once

#include <map>
#include <string>

#include "stream/ir/workload.hpp"
#include "stream/pipeline/layout_choice.hpp"

namespace stream::pipeline {

/// The conversion group turning `from` (row-major) into `to`.
[[nodiscard]] Workload conversion_group(const TensorPtr& from, const Layout& to);

/// The tensor replacing `tensor` under `choice`: itself with the chosen layout, or the converted
/// tensor; nullptr when the choice keeps the model's option.
[[nodiscard]] TensorPtr replacement(const TensorPtr& tensor, const LayoutChoice& choice);

/// `group` with every tensor named in `replace` replaced (by name) in every node.
[[nodiscard]] Workload with_tensors(const Workload& group, const std::map<std::string, TensorPtr>& replace);

}  // namespace stream::pipeline
