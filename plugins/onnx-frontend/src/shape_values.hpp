// Shape arithmetic, and every other small constant computation, evaluated at load time. Exporters compute Reshape targets, Slice ends, Pad pads
// and Expand shapes at run time, from Shape(x) through chains of small integer operations (Gather,
// Concat, Unsqueeze, Div, Mod, Equal, Where, ConstantOfShape, Transpose, ...). ONNX 1.12's data
// propagation follows only part of such a chain (Shape, Gather, Concat, Unsqueeze, Squeeze, Slice,
// Cast, Add, Sub, Mul). A ShapeValueFolder, shown the nodes in graph order, evaluates every
// single-output default-domain node that int_tensor_ops evaluates and whose inputs are known
// (small integer and float initializers and Constants, values it folded before, or the static
// shape a Shape node reads) and replaces it by a Constant holding the result: shape inference then
// reads those values as data, and the parsers receive them as OnnxValue::int_values. A Split of
// known values (torch's repeat_interleave builds its Expand shape through one) keeps its node, but
// its parts are recorded, so that the nodes reading them fold. Results over
// kMaxIntElements elements, integer overflow and division by zero are left unevaluated.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "int_tensor_ops.hpp"

namespace stream::onnx_frontend {

/// The largest integer tensor read or computed (shapes, pads and index tables are far smaller).
inline constexpr std::int64_t kMaxIntElements = 1 << 14;

/// The values of a small int64, int32 or bool tensor stored in the model (never external data).
[[nodiscard]] std::optional<std::vector<std::int64_t>> int_data(const onnx::TensorProto& t);

/// A small int64, int32, bool, float or double tensor stored in the model, as the evaluator holds it.
[[nodiscard]] std::optional<IntTensor> small_tensor(const onnx::TensorProto& t);

/// The fully static shape of a value, or nullptr when some extent is unknown or the value is unknown.
using StaticShapeLookup = std::function<const std::vector<std::int64_t>*(const std::string& value)>;

class ShapeValueFolder {
 public:
  /// Reads the graph's integer initializers; `opset` is the default domain's (0: nothing folds).
  ShapeValueFolder(const onnx::GraphProto& graph, std::int64_t opset);

  /// Folds `node` into a Constant when it can be evaluated (a Constant given by value_int(s) is
  /// rewritten to the tensor form, which shape inference reads); records a Constant's value.
  /// Returns true when the node was rewritten.
  bool fold(onnx::NodeProto& node, const StaticShapeLookup& static_shape);

  /// The value of `name` when known (an initializer, a Constant or a folded node), else nullptr.
  [[nodiscard]] const IntTensor* value(const std::string& name) const {
    const auto it = known_.find(name);
    return it == known_.end() ? nullptr : &it->second;
  }

 private:
  void record_split(const onnx::NodeProto& node);

  std::int64_t opset_;
  std::unordered_map<std::string, IntTensor> known_;  // lookups only
  // Float values as stored (initializers, Constants, ConstantOfShape fills): a layout operator over
  // one is left to constant_subgraphs.hpp, which keeps it a view of the stored weight.
  std::unordered_set<std::string> stored_reals_;
};

}  // namespace stream::onnx_frontend
