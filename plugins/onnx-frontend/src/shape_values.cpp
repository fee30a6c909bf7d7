#include "shape_values.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "int_tensor_ops.hpp"

namespace stream::onnx_frontend {
namespace {

using Dims = std::vector<std::int64_t>;


// The values of a small float or double tensor, as doubles.
std::optional<std::vector<double>> real_data(const onnx::TensorProto& t) {
  const int type = t.data_type();
  if (!is_real(type) || t.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) return std::nullopt;
  std::int64_t count = 1;
  for (auto d : t.dims())
    if (d < 0 || __builtin_mul_overflow(count, d, &count) || count > kMaxIntElements) return std::nullopt;
  std::vector<double> out;
  if (type == kF32 && t.float_data_size() > 0) {
    out.assign(t.float_data().begin(), t.float_data().end());
  } else if (type == kF64 && t.double_data_size() > 0) {
    out.assign(t.double_data().begin(), t.double_data().end());
  } else {
    const auto& raw = t.raw_data();
    const std::size_t width = type == kF32 ? 4 : 8;
    if (raw.size() != static_cast<std::size_t>(count) * width) return std::nullopt;
    for (std::size_t i = 0; i < raw.size(); i += width) {
      if (width == 4) {
        float x = 0;
        std::memcpy(&x, raw.data() + i, 4);
        out.push_back(x);
      } else {
        double x = 0;
        std::memcpy(&x, raw.data() + i, 8);
        out.push_back(x);
      }
    }
  }
  if (static_cast<std::int64_t>(out.size()) != count) return std::nullopt;
  return out;
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
    else if (t.elem == kF32) value->add_float_data(static_cast<float>(real_of(v)));
    else if (t.elem == kF64) value->add_double_data(real_of(v));
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

std::optional<IntTensor> small_tensor(const onnx::TensorProto& t) {
  const Dims dims(t.dims().begin(), t.dims().end());
  if (is_real(t.data_type())) {
    auto values = real_data(t);
    if (!values) return std::nullopt;
    IntTensor r{t.data_type(), dims, {}};
    for (auto v : *values) r.values.push_back(real_bits(v));
    return r;
  }
  auto values = int_data(t);
  if (!values) return std::nullopt;
  return IntTensor{t.data_type(), dims, std::move(*values)};
}

// Float initializers of more than one element are weights: evaluating a Transpose or Reshape of one
// would turn the weight into an anonymous Constant (constant_subgraphs.hpp keeps such views), and no
// shape depends on a weight's values. Scalars (a scale, an exponent base) take part.
ShapeValueFolder::ShapeValueFolder(const onnx::GraphProto& graph, std::int64_t opset) : opset_(opset) {
  for (const auto& t : graph.initializer()) {
    if (is_real(t.data_type()) && std::any_of(t.dims().begin(), t.dims().end(), [](std::int64_t d) { return d != 1; }))
      continue;
    if (auto v = small_tensor(t)) known_.emplace(t.name(), std::move(*v));
    if (is_real(t.data_type())) stored_reals_.insert(t.name());
  }
}

bool ShapeValueFolder::fold(onnx::NodeProto& n, const StaticShapeLookup& static_shape) {
  if (opset_ <= 0 || (!n.domain().empty() && n.domain() != "ai.onnx")) return false;
  if (n.op_type() == "Split") {
    record_split(n);
    return false;
  }
  if (n.output_size() != 1 || n.output(0).empty()) return false;
  if (!is_int_op(n.op_type())) return false;
  if (n.op_type() == "Constant" && tensor_constant(n)) {
    for (const auto& a : n.attribute())
      if (a.name() == "value" && a.type() == onnx::AttributeProto_AttributeType_TENSOR) {
        if (auto v = small_tensor(a.t())) known_[n.output(0)] = std::move(*v);
        if (is_real(a.t().data_type())) stored_reals_.insert(n.output(0));
      }
    return false;
  }
  static const std::unordered_set<std::string> layout{"Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze", "Identity"};
  if (layout.count(n.op_type()) != 0 && n.input_size() > 0 && stored_reals_.count(n.input(0)) != 0) return false;
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
  if (n.op_type() == "ConstantOfShape" && is_real(value->elem)) stored_reals_.insert(n.output(0));
  make_constant(n, *value);
  known_[n.output(0)] = std::move(*value);
  return true;
}

// A Split cannot become one Constant: it stays (the frontend removes it with the rest of its constant
// subgraph), and only its parts' values are recorded, so that the nodes reading them fold.
void ShapeValueFolder::record_split(const onnx::NodeProto& n) {
  if (n.input_size() < 1 || stored_reals_.count(n.input(0)) != 0) return;
  std::vector<const IntTensor*> inputs(static_cast<std::size_t>(n.input_size()), nullptr);
  for (int i = 0; i < n.input_size(); ++i) {
    if (n.input(i).empty()) continue;
    const auto it = known_.find(n.input(i));
    if (it == known_.end()) return;
    inputs[static_cast<std::size_t>(i)] = &it->second;
  }
  auto parts = evaluate_split(n, opset_, inputs);
  if (!parts) return;
  for (int i = 0; i < n.output_size(); ++i)
    if (!n.output(i).empty()) known_[n.output(i)] = std::move((*parts)[static_cast<std::size_t>(i)]);
}

}  // namespace stream::onnx_frontend
