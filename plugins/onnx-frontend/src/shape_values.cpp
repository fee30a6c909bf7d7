#include "shape_values.hpp"

#include <cstring>
#include <unordered_map>

#include "int_tensor_ops.hpp"

namespace stream::onnx_frontend {
namespace {


std::optional<IntTensor> int_tensor(const onnx::TensorProto& t) {
  auto values = int_data(t);
  if (!values) return std::nullopt;
  return IntTensor{t.data_type(), {t.dims().begin(), t.dims().end()}, std::move(*values)};
}

// Replaces the node by a Constant holding `t`, keeping its name and output.
void make_constant(onnx::NodeProto& n, const IntTensor& t) {
  const std::string name = n.name(), output = n.output(0);
  n.Clear();
  n.set_name(name);
  n.set_op_type("Constant");
  n.add_output(output);
  auto* a = n.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
  auto* value = a->mutable_t();
  value->set_data_type(t.elem);
  for (auto d : t.dims) value->add_dims(d);
  for (auto v : t.values) {
    if (t.elem == kI64) value->add_int64_data(v);
    else value->add_int32_data(static_cast<std::int32_t>(v));
  }
}

bool tensor_constant(const onnx::NodeProto& n) {
  for (const auto& a : n.attribute())
    if (a.name() == "value") return true;
  return false;
}

}  // namespace

std::optional<std::vector<std::int64_t>> int_data(const onnx::TensorProto& t) {
  const int type = t.data_type();
  if (type != kI64 && type != kI32 && type != kBool) return std::nullopt;
  if (t.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) return std::nullopt;
  std::int64_t count = 1;
  for (auto d : t.dims())
    if (d < 0 || __builtin_mul_overflow(count, d, &count) || count > kMaxIntElements) return std::nullopt;
  std::vector<std::int64_t> out;
  if (type == kI64 && t.int64_data_size() > 0) {
    out.assign(t.int64_data().begin(), t.int64_data().end());
  } else if (type != kI64 && t.int32_data_size() > 0) {
    out.assign(t.int32_data().begin(), t.int32_data().end());
  } else if (!t.raw_data().empty()) {
    const auto& raw = t.raw_data();
    const std::size_t width = type == kI64 ? 8 : type == kI32 ? 4 : 1;
    for (std::size_t i = 0; i + width <= raw.size(); i += width) {
      if (width == 8) {
        std::int64_t x = 0;
        std::memcpy(&x, raw.data() + i, 8);
        out.push_back(x);
      } else if (width == 4) {
        std::int32_t x = 0;
        std::memcpy(&x, raw.data() + i, 4);
        out.push_back(x);
      } else {
        out.push_back(raw[i] != 0);
      }
    }
  } else if (count != 0) {
    return std::nullopt;
  }
  if (static_cast<std::int64_t>(out.size()) != count) return std::nullopt;
  return out;
}

ShapeValueFolder::ShapeValueFolder(const onnx::GraphProto& graph, std::int64_t opset) : opset_(opset) {
  for (const auto& t : graph.initializer())
    if (auto v = int_tensor(t)) known_.emplace(t.name(), std::move(*v));
}

bool ShapeValueFolder::fold(onnx::NodeProto& n, const StaticShapeLookup& static_shape) {
  if (opset_ <= 0 || (!n.domain().empty() && n.domain() != "ai.onnx") || n.output_size() != 1 || n.output(0).empty())
    return false;
  if (!is_int_op(n.op_type())) return false;
  if (n.op_type() == "Constant" && tensor_constant(n)) {
    for (const auto& a : n.attribute())
      if (a.name() == "value" && a.type() == onnx::AttributeProto_AttributeType_TENSOR)
        if (auto v = int_tensor(a.t())) known_[n.output(0)] = std::move(*v);
    return false;
  }
  const bool reads_shape = n.op_type() == "Shape" || n.op_type() == "Size";
  std::vector<const IntTensor*> inputs(static_cast<std::size_t>(n.input_size()), nullptr);
  for (int i = reads_shape ? 1 : 0; i < n.input_size(); ++i) {
    if (n.input(i).empty()) continue;
    auto it = known_.find(n.input(i));
    if (it == known_.end()) return false;
    inputs[static_cast<std::size_t>(i)] = &it->second;
  }
  const std::vector<std::int64_t>* shape = nullptr;
  if (reads_shape) {
    if (n.input_size() < 1) return false;
    // The shape of a value folded before is known before inference declares it.
    auto it = known_.find(n.input(0));
    shape = it != known_.end() ? &it->second.dims : static_shape(n.input(0));
    if (!shape) return false;
  }
  auto value = evaluate_int_op(n, opset_, inputs, shape);
  if (!value) return false;
  make_constant(n, *value);
  known_[n.output(0)] = std::move(*value);
  return true;
}

}  // namespace stream::onnx_frontend
