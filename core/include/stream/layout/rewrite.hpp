// The second pass of `--layout choose` (choice.hpp): the first pass's groups with the
// chosen layouts, and the conversion groups.
//
// A tensor whose chosen option needs no conversion takes its layout everywhere (its producer's
// group writes it so, the readers' groups read it so). Under a conversion the tensor is written
// in the option's `written` layout (a graph input or constant keeps its row-major self) and the
// groups that only read it read `<tensor>_as_<order>` instead, which the conversion writes. A
// conversion on a core is a group of its own: an in-edge of the tensor, one conversion node (an
// identity copy of type kLayoutConversionType whose output has the chosen layout) and an out-edge,
// so it is scheduled, costed and reported like any group and the readers' fused groups keep their
// shape. A conversion on the DMA has no group (LayoutOutcome::dma_conversions, outcome.hpp).
#pragma once

#include <map>
#include <string>

#include "stream/ir/workload.hpp"
#include "stream/layout/choice.hpp"

namespace stream::layout {

/// The conversion group turning `from` (in its layout) into `to`.
[[nodiscard]] Workload conversion_group(const TensorPtr& from, const Layout& to);

/// What the second pass puts in place of a tensor: in the groups writing it and in the groups
/// only reading it; null where it stays as it is.
struct Rewrite {
  TensorPtr written;
  TensorPtr read;
};

/// The rewrite of `tensor` under `choice` (both null when the choice keeps the model's option).
[[nodiscard]] Rewrite rewrite_of(const TensorPtr& tensor, const LayoutChoice& choice);

/// `group` with the tensors of `rewrites` replaced (by name) in every node: by `written` in a
/// group some computation node of which writes the tensor, by `read` elsewhere.
[[nodiscard]] Workload with_tensors(const Workload& group, const std::map<std::string, Rewrite>& rewrites);

}  // namespace stream::layout
