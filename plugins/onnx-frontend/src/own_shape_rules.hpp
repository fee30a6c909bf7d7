// Output shapes of the operators whose shape rule libonnx 1.12 does not have, or has only in an
// older form. Debian's libonnx knows the default domain up to opset 17: an operator added later
// (Attention, RMSNormalization, RotaryEmbedding, GroupNormalization, Col2Im, CenterCropPad, ...)
// has no schema, and one whose schema changed later (Reduce*'s and Pad's axes as an input, Split's
// num_outputs, Resize's axes and aspect-ratio policy, AveragePool's dilations, GridSample in N
// dimensions) would be inferred with the old rule, which gives another shape. For each such
// (operator, opset) the rule is ours: static_shapes.cpp hides the old schema from ONNX's inference
// and asks own_output_shapes instead. The pooling operators are ours at every opset: libonnx's
// ceil_mode rule lets the last window start in the right padding, which ONNX has since corrected.
// ai.onnx.preview's FlexAttention takes Attention's rule.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stream::onnx_frontend {

/// What a rule reads about the node's inputs: static shapes, element types, constant values.
struct ShapeRuleInputs {
  std::function<const std::vector<std::int64_t>*(const std::string& value)> shape;  ///< null: unknown
  std::function<int(const std::string& value)> elem;                                ///< 0: unknown
  std::function<const onnx::TensorProto*(const std::string& value)> constant;  ///< null: not a constant
};

struct OwnOutput {
  int elem = 0;
  std::vector<std::int64_t> shape;
};

/// True when the output shapes of `op_type` (default domain) at `opset` come from our rule.
[[nodiscard]] bool has_own_shape_rule(const std::string& op_type, std::int64_t opset);

/// One entry per output of `node` (nullopt where the rule cannot tell yet: an input shape or a
/// constant it needs is unknown). Calls `fail(message)` (which does not return) when the inputs
/// are known but contradict the operator's definition.
[[nodiscard]] std::vector<std::optional<OwnOutput>> own_output_shapes(
    const onnx::NodeProto& node, std::int64_t opset, const ShapeRuleInputs& in,
    const std::function<void(const std::string& message)>& fail);

}  // namespace stream::onnx_frontend
