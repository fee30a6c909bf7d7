#include "input_values.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace stream::onnx_frontend {
namespace {

using InputFailure = std::function<void(const std::string&, const std::string&)>;

// The value text as an integer (bool: true/false/1/0) or a float, stored in `t`'s element type.
bool store_value(onnx::TensorProto& t, const std::string& text) {
  std::size_t used = 0;
  try {
    switch (t.data_type()) {
      case onnx::TensorProto_DataType_BOOL: {
        const bool on = text == "true" || text == "1", off = text == "false" || text == "0";
        if (!on && !off) return false;
        t.add_int32_data(on ? 1 : 0);
        return true;
      }
      case onnx::TensorProto_DataType_INT64: t.add_int64_data(std::stoll(text, &used)); break;
      case onnx::TensorProto_DataType_INT32:
      case onnx::TensorProto_DataType_INT16:
      case onnx::TensorProto_DataType_INT8:
      case onnx::TensorProto_DataType_UINT8: t.add_int32_data(std::stoi(text, &used)); break;
      case onnx::TensorProto_DataType_FLOAT: t.add_float_data(std::stof(text, &used)); break;
      case onnx::TensorProto_DataType_DOUBLE: t.add_double_data(std::stod(text, &used)); break;
      default: return false;
    }
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size();
}

void bind_one(onnx::GraphProto& g, const std::string& name, const std::string& text, const InputFailure& fail) {
  auto& inputs = *g.mutable_input();
  const auto it = std::find_if(inputs.begin(), inputs.end(), [&](const onnx::ValueInfoProto& v) { return v.name() == name; });
  if (it == inputs.end()) {
    std::string names;
    for (const auto& v : inputs) names += (names.empty() ? "'" : ", '") + v.name() + "'";
    fail("--input " + name + "=" + text + ": the model has no graph input named '" + name + "' (its inputs: " + names + ")",
         name);
  }
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(it->type().tensor_type().elem_type());
  for (const auto& d : it->type().tensor_type().shape().dim()) {
    if (d.has_dim_value() && d.dim_value() == 1) {
      t.add_dims(1);
      continue;
    }
    fail("--input " + name + "=" + text + ": graph input '" + name +
             "' is not a scalar (only scalar or one-element inputs can be given a value)",
         name);
  }
  if (!store_value(t, text))
    fail("--input " + name + "=" + text + ": '" + text + "' is not a value of graph input '" + name + "''s type " +
             onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(t.data_type())),
         name);
  inputs.erase(it);
  auto& inits = *g.mutable_initializer();
  inits.erase(std::remove_if(inits.begin(), inits.end(), [&](const onnx::TensorProto& i) { return i.name() == name; }),
              inits.end());
  *g.add_initializer() = std::move(t);
}

}  // namespace

std::vector<std::string> bind_input_values(onnx::GraphProto& graph, const FrontendOptions& options, const InputFailure& fail) {
  const std::string prefix = kInputOptionPrefix;
  std::vector<std::string> bound;
  for (const auto& [key, value] : options.values) {
    if (key.rfind(prefix, 0) != 0) continue;
    bound.push_back(key.substr(prefix.size()));
    bind_one(graph, bound.back(), value, fail);
  }
  return bound;
}

}  // namespace stream::onnx_frontend
