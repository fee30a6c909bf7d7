// The decoded ExportedProgram: what the converters need from the JSON, with every symbolic size
// already evaluated (bindings from the options first, then the file's hints).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <stream/ir/dtype.hpp>
#include <stream/registry/frontends.hpp>

#include "stream_torch/torch_frontend.hpp"

namespace stream::torch_frontend::detail {

struct ValueMeta {
  std::string name;
  int scalar_type = 0;  ///< the schema's ScalarType code (not c10's)
  std::vector<std::int64_t> shape;
};

enum class InputRole { User, Parameter, Buffer, Constant, Other };

struct GraphInput {
  std::string name;  ///< placeholder name ("p_linear_weight", "x")
  InputRole role = InputRole::User;
  std::string fqn;   ///< parameter/buffer/constant name in the module ("linear.weight")
};

struct Program {
  std::string file;
  std::map<std::string, ValueMeta> values;  ///< tensor_values
  std::vector<GraphInput> inputs;           ///< graph.inputs with their roles, in order
  std::vector<std::string> outputs;         ///< user outputs that are tensors, in order
  std::vector<AtenCall> calls;              ///< every node, in file (topological) order
  /// Values that are another value: outputs of an inlined higher-order op -> its subgraph's outputs.
  std::map<std::string, std::string> aliases;
};

/// Decodes the JSON; throws a stream::Error naming `file` for anything malformed.
[[nodiscard]] Program parse_program(const std::string& json, const std::string& file, const FrontendOptions& options);

/// The IR element type of a ScalarType code; unset for codes outside the IR's set (int64, bool, ...).
[[nodiscard]] std::optional<DType> dtype_of(int scalar_type);
/// "LONG", "BFLOAT16", ... ("code <n>" for unknown codes).
[[nodiscard]] std::string scalar_type_name(int scalar_type);

}  // namespace stream::torch_frontend::detail
