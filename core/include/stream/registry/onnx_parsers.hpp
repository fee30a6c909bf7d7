// ONNX operator parsers, keyed by op type.
//
// A parser sees a neutral view of one ONNX node (no protobuf): op type, domain, name, attributes,
// and its inputs and outputs with names, element types, shapes, and the values of small constant
// integer tensors (Reshape's shape, Slice's starts, ...). It returns one or more affine nodes,
// creating tensors through the context, so a fused operator (an attention kernel, say) lowers into
// several nodes at once. Layout operators are parsers too: the built-in ones return a FusionEdge
// that the ONNX frontend then folds into its readers where it can.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/node.hpp"

namespace stream {

struct OnnxAttribute {
  enum class Kind { Int, Float, String, Ints, Floats, Strings, Tensor, Other };
  Kind kind = Kind::Other;
  std::int64_t i = 0;
  double f = 0.0;
  std::string s;
  std::vector<std::int64_t> ints;
  std::vector<double> floats;
  std::vector<std::string> strings;
};

struct OnnxValue {
  std::string name;                     ///< "" for an omitted optional input
  int onnx_type = 0;                    ///< TensorProto.DataType code (0 when unknown)
  std::optional<DType> dtype;           ///< unset for types outside the supported set (int64, bool, ...)
  std::vector<std::int64_t> shape;
  bool is_constant = false;             ///< an initializer or a Constant/ConstantOfShape output
  std::optional<std::vector<std::int64_t>> int_values;  ///< data of a constant integer tensor, when present

  [[nodiscard]] bool present() const { return !name.empty(); }
};

struct STREAM_API OnnxNodeView {
  std::string op_type;
  std::string domain;
  std::string name;
  std::map<std::string, OnnxAttribute> attributes;
  std::vector<OnnxValue> inputs;
  std::vector<OnnxValue> outputs;
  std::string file;  ///< model path, for error messages
  std::int64_t opset = 0;  ///< opset version the model imports for the node's domain (0 when unknown)

  [[nodiscard]] bool has_attribute(const std::string& key) const { return attributes.count(key) != 0; }
  [[nodiscard]] std::int64_t attr_int(const std::string& key, std::int64_t fallback) const;
  [[nodiscard]] double attr_float(const std::string& key, double fallback) const;
  [[nodiscard]] std::string attr_string(const std::string& key, const std::string& fallback) const;
  /// INTS attribute; a scalar INT attribute is accepted as a one-element list.
  [[nodiscard]] std::vector<std::int64_t> attr_ints(const std::string& key,
                                                    const std::vector<std::int64_t>& fallback = {}) const;
  /// Throws a stream::Error naming the model file, this node and (optionally) a tensor.
  [[noreturn]] void fail(const std::string& message, const std::string& tensor = "") const;
};

/// What a parser may ask of the frontend while lowering one node.
class STREAM_API OnnxParseContext {
 public:
  virtual ~OnnxParseContext() = default;
  /// The tensor of an ONNX value (graph input, initializer or an earlier node's output).
  [[nodiscard]] virtual TensorPtr tensor(const std::string& value_name) = 0;
  /// A new intermediate tensor for a multi-node lowering; the name is made unique if needed.
  [[nodiscard]] virtual TensorPtr new_tensor(const std::string& name, DType dtype,
                                             std::vector<std::int64_t> shape) = 0;
  /// Declares the permutation (output axis k is input axis perm[k]) of a Transpose FusionEdge that
  /// a parser returns for another op type (DepthToSpace lowers to reshape, transpose, reshape), so
  /// that layout folding permutes by it. The default refuses: a context that cannot record it
  /// must not let the edge fold with a guessed permutation.
  virtual void set_transpose_perm(const std::string& fusion_edge, std::vector<std::int64_t> perm);
  /// A new tensor holding a recurrent state carried between steps (h(t-1) of an LSTM): read, never
  /// written, by the lowering, it enters the workload through an InEdge as linear attention's and
  /// Mamba's state_prev do. The default is an ordinary new tensor (then unread-unproduced fails).
  [[nodiscard]] virtual TensorPtr new_state_tensor(const std::string& name, DType dtype, std::vector<std::int64_t> shape) {
    return new_tensor(name, dtype, std::move(shape));
  }
};

using OnnxParser = std::function<std::vector<Node>(const OnnxNodeView& node, OnnxParseContext& context)>;

}  // namespace stream
