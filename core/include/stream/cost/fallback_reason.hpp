// Why the per-core model did not cost a (node, core) pair, in words a user acts on.
//
// The model reports the reference's reasons: Python exception names and ZigZag's internals
// (`KeyError: I2`, `NoValidLoopOrderingFoundException`, `AssertionError`, `no port for
// RD_OUT_TO_LOW of operand O at memory level 0`). Those tell a user nothing, so every reason
// shown (core_cost_lut.yaml's `reason`, the summary, the warnings, --strict's error) is a
// sentence about the node and the core; the model's text stays in a debug field (`detail`).
#pragma once

#include <string>

#include "stream/cost/core_model.hpp"
#include "stream/cost/tile.hpp"
#include "stream/export.hpp"

namespace stream::cost {

struct FallbackReason {
  std::string reason;  ///< the sentence
  std::string detail;  ///< the model's own text, unchanged
};

/// The sentence for the model's reason `model_reason` about `tile` on the core `model` describes
/// (null when no model exists for the core: the reason is then already a sentence).
[[nodiscard]] STREAM_API FallbackReason explain_fallback(const std::string& model_reason, const Tile& tile,
                                                         const CoreModel* model);

}  // namespace stream::cost
