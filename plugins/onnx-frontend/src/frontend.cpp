// The `onnx` WorkloadFrontend: protobuf in, affine workload out.
//
// Load pipeline: read the ModelProto (weights never read; external data files not needed), give
// every tensor a static shape (static_shapes.hpp: ONNX shape inference in rounds, with shape
// arithmetic evaluated into Constants between them), then turn the graph into a list of working nodes: Identity/Dropout become aliases, Constant and
// ConstantOfShape become constant values, int64/bool shape arithmetic is skipped as metadata (a
// bool mask that float data reads and the indices ArgMax/ArgMin/TopK compute stay data), and
// the QDQ pre-pass folds QuantizeLinear/DequantizeLinear. Every remaining node goes to the parser
// registered for its op type; then layout FusionEdges are folded and ReduceSums folded into their
// contractions.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <stream/error.hpp>
#include <stream/ir/graph_edges.hpp>
#include <stream/ir/layout_folding.hpp>
#include <stream/ir/reduction_folding.hpp>
#include <stream/registry/registries.hpp>

#include "constant_subgraphs.hpp"
#include "control_flow.hpp"
#include "element_types.hpp"
#include "input_values.hpp"
#include "model_checks.hpp"
#include "parser_util.hpp"
#include "shape_values.hpp"
#include "static_shapes.hpp"
#include "stream_onnx/onnx_frontend.hpp"

namespace stream::onnx_frontend {
namespace {

constexpr int kInt64 = onnx::TensorProto_DataType_INT64;

struct Value {
  int elem = 0;
  bool shape_known = false;
  std::vector<std::int64_t> shape;
  std::string unknown_reason;  // why the shape is unknown (symbolic dim, no inference result)
  bool is_constant = false;
  std::optional<std::vector<std::int64_t>> int_values;
};

struct WorkNode {
  const onnx::NodeProto* proto = nullptr;
  std::string name, op_type, domain;
  std::vector<std::string> inputs, outputs;
  bool removed = false;
};

OnnxAttribute convert(const onnx::AttributeProto& a) {
  OnnxAttribute r;
  switch (a.type()) {
    case onnx::AttributeProto_AttributeType_INT: r.kind = OnnxAttribute::Kind::Int; r.i = a.i(); break;
    case onnx::AttributeProto_AttributeType_FLOAT: r.kind = OnnxAttribute::Kind::Float; r.f = a.f(); break;
    case onnx::AttributeProto_AttributeType_STRING: r.kind = OnnxAttribute::Kind::String; r.s = a.s(); break;
    case onnx::AttributeProto_AttributeType_INTS:
      r.kind = OnnxAttribute::Kind::Ints;
      r.ints.assign(a.ints().begin(), a.ints().end());
      break;
    case onnx::AttributeProto_AttributeType_FLOATS:
      r.kind = OnnxAttribute::Kind::Floats;
      r.floats.assign(a.floats().begin(), a.floats().end());
      break;
    case onnx::AttributeProto_AttributeType_STRINGS:
      r.kind = OnnxAttribute::Kind::Strings;
      r.strings.assign(a.strings().begin(), a.strings().end());
      break;
    case onnx::AttributeProto_AttributeType_TENSOR: {
      r.kind = OnnxAttribute::Kind::Tensor;
      if (auto ints = int_data(a.t())) r.ints = *ints;
      break;
    }
    default: r.kind = OnnxAttribute::Kind::Other; break;
  }
  return r;
}

class Loader;

class Context : public OnnxParseContext {
 public:
  explicit Context(Loader& loader) : loader_(loader) {}
  TensorPtr tensor(const std::string& value_name) override;
  TensorPtr new_tensor(const std::string& name, DType dtype, std::vector<std::int64_t> shape) override {
    auto unique = name;
    for (int i = 1; tensors_.count(unique) != 0 || values_has(unique); ++i) unique = name + "_" + std::to_string(i);
    auto t = make_tensor(unique, dtype, std::move(shape));
    tensors_[unique] = t;
    return t;
  }
  void set_transpose_perm(const std::string& fusion_edge, std::vector<std::int64_t> perm) override {
    perms[fusion_edge] = std::move(perm);
  }
  TensorPtr new_state_tensor(const std::string& name, DType dtype, std::vector<std::int64_t> shape) override {
    auto t = new_tensor(name, dtype, std::move(shape));
    states_.insert(t->name);
    return t;
  }
  bool is_state(const std::string& name) const { return states_.count(name) != 0; }
  void add(const TensorPtr& t) { tensors_.emplace(t->name, t); }
  bool has(const std::string& name) const { return tensors_.count(name) != 0; }
  bool values_has(const std::string& name) const;

  std::string node;  // the node being parsed, for error locations
  std::map<std::string, std::vector<std::int64_t>> perms;  // declared by parsers, by FusionEdge name

 private:
  Loader& loader_;
  std::unordered_map<std::string, TensorPtr> tensors_;
  std::set<std::string> states_;  // carried recurrent states: admitted as InEdges
};

class Loader {
 public:
  Loader(const std::filesystem::path& path, const FrontendOptions& options, const Registries& registries)
      : path_(path), file_(path.string()), options_(options), registries_(registries) {}

  Workload run() {
    read();
    infer();
    build_values();
    build_work_nodes();
    fold_qdq();
    auto nodes = parse_nodes();
    return finish(std::move(nodes));
  }

  [[noreturn]] void fail(const std::string& message, const std::string& node = "", const std::string& tensor = "") const {
    throw Error(message, Location{.file = file_, .node = node, .operand = tensor});
  }

  const Value* value(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }

  // The modelled element type of a value: the model's type, except that int64 and bool values
  // are metadata (none) unless they carry data (data_values_).
  std::optional<DType> data_dtype(const std::string& name) const {
    const Value* v = value(name);
    if (!v) return std::nullopt;
    if (v->elem == kInt64 || v->elem == kBool) {
      if (data_values_.count(name) == 0) return std::nullopt;
      return v->elem == kBool ? DType::b8 : DType::i64;
    }
    return dtype_of_onnx(v->elem);
  }

  TensorPtr make(const std::string& name, const std::string& node) const {
    const Value* v = value(name);
    if (!v) fail("no value named '" + name + "' exists in the graph (it has no producer)", node, name);
    auto dt = data_dtype(name);
    if (!dt)
      fail("unsupported element type " + onnx_type_name(v->elem) + " for tensor '" + name +
               "' (supported: " + dtype_names() + "; int64 and bool where data depends on them, not shape metadata)",
           node, name);
    if (!v->shape_known)
      fail("the shape of tensor '" + name + "' is unknown after ONNX shape inference" +
               (v->unknown_reason.empty() ? "" : " (" + v->unknown_reason + ")"),
           node, name);
    for (std::size_t a = 0; a < v->shape.size(); ++a)
      if (v->shape[a] <= 0)
        fail("tensor '" + name + "' has extent " + std::to_string(v->shape[a]) + " on axis " + std::to_string(a) +
                 " (an empty first output of a node that also writes non-empty values is not modelled)",
             node, name);
    return make_tensor(name, *dt, v->shape);
  }

 private:
  void read() {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path_, ec)) fail("cannot read ONNX model: no such file");
    std::ifstream in(path_, std::ios::binary);
    if (!in) fail("cannot read ONNX model: the file cannot be opened");
    // Parsed from the stream, not from a copy of the file in memory: a model with its weights
    // inside (hundreds of MB) is then held once, not three times (file buffer, string, message).
    if (!model_.ParseFromIstream(&in))
      fail("not a readable ONNX model: protobuf parsing failed (the file is truncated or not an ONNX protobuf)");
    if (!model_.has_graph() || model_.ir_version() <= 0)
      fail("not a readable ONNX model: no graph or IR version (the file is empty or not an ONNX model)");
    for (const auto& op : model_.opset_import()) {
      const auto domain = op.domain() == "ai.onnx" ? std::string() : op.domain();
      // ONNX's operator sets start at version 1: a 0 or negative one would pick no schema (or the
      // first) and cost the model under rules it does not ask for.
      if (op.version() < 1)
        fail("opset_import of domain '" + (domain.empty() ? std::string("ai.onnx") : domain) + "' has version " +
             std::to_string(op.version()) + ": operator set versions start at 1");
      opsets_[domain] = op.version();
    }
    // The reference names unnamed nodes Op0, Op1, ... counting unnamed nodes only.
    int unnamed = 0;
    std::set<std::string> names;
    for (const auto& n : model_.graph().node()) names.insert(n.name());
    // Node names must be unique in a workload: a repeated name gets a suffix.
    std::set<std::string> seen;
    for (auto& n : *model_.mutable_graph()->mutable_node()) {
      if (n.name().empty() || seen.insert(n.name()).second) continue;
      std::string name;
      for (int k = 1; names.count(name = n.name() + "_" + std::to_string(k)) != 0; ++k) {
      }
      names.insert(name);
      seen.insert(name);
      n.set_name(name);
    }
    for (auto& n : *model_.mutable_graph()->mutable_node()) {
      if (!n.name().empty()) continue;
      std::string name;
      do name = "Op" + std::to_string(unnamed++);
      while (names.count(name) != 0);
      n.set_name(name);
      names.insert(name);
    }
    // Symbolic dims of graph inputs take their value from the frontend options (--dim NAME=SIZE).
    for (auto& in : *model_.mutable_graph()->mutable_input()) {
      if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) continue;
      for (auto& d : *in.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
        if (d.has_dim_value() || !d.has_dim_param()) continue;
        const auto given = options_.get(d.dim_param());
        if (given.empty()) {
          if (std::find(open_symbols_.begin(), open_symbols_.end(), d.dim_param()) == open_symbols_.end())
            open_symbols_.push_back(d.dim_param());
          continue;
        }
        std::size_t used = 0;
        long long size = 0;
        try {
          size = std::stoll(given, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != given.size() || size <= 0)
          fail("option " + d.dim_param() + "=" + given + " is not a positive integer", "", in.name());
        d.set_dim_value(size);
      }
    }
    // A given input's value decides things at load time: it gets no InEdge unless a node reads it.
    for (auto& name : bind_input_values(*model_.mutable_graph(), options_,
                                        [this](const std::string& m, const std::string& v) { fail(m, "", v); }))
      folded_reads_.insert(std::move(name));
  }

  // Why a dimension is unknown: a graph input's symbolic dim, or (an inferred dim named by ONNX, or
  // none) a dimension that depends on one.
  std::string unknown_dim_reason(const onnx::TensorShapeProto_Dimension& d) const {
    const bool input_symbol = d.has_dim_param() &&
                              std::find(open_symbols_.begin(), open_symbols_.end(), d.dim_param()) != open_symbols_.end();
    if (input_symbol) return "symbolic dimension '" + d.dim_param() + "'; give its size with --dim " + d.dim_param() + "=N";
    if (open_symbols_.empty()) return "a dimension is unknown";
    std::string names;
    for (const auto& s : open_symbols_) names += (names.empty() ? "'" : ", '") + s + "'";
    return "a dimension is unknown; the graph inputs have symbolic dimension(s) " + names + ": give their sizes with --dim " +
           open_symbols_.front() + "=N";
  }

  void infer() {
    check_and_sort_graph(*model_.mutable_graph(), opsets_, file_);
    // What only a subgraph reads (a weight of one If branch) gets an InEdge only if the expanded
    // graph reads it.
    for (auto& name : subgraph_reads(model_.graph())) folded_reads_.insert(std::move(name));
    const auto op = opsets_.find("");
    infer_static_shapes(model_, op == opsets_.end() ? 0 : op->second,
                        [this](const std::string& m, const std::string& n, const std::string& v) { fail(m, n, v); });
  }

  void set_value(const onnx::ValueInfoProto& vi) {
    if (!vi.type().has_tensor_type()) return;
    const auto& tt = vi.type().tensor_type();
    Value v;
    v.elem = tt.elem_type();
    v.shape_known = tt.has_shape();
    if (!tt.has_shape()) v.unknown_reason = "shape inference gave no shape";
    for (const auto& d : tt.shape().dim()) {
      if (d.has_dim_value()) {
        v.shape.push_back(d.dim_value());
      } else {
        v.shape_known = false;
        v.unknown_reason = unknown_dim_reason(d);
      }
    }
    auto [it, inserted] = values_.emplace(vi.name(), v);
    if (!inserted && !it->second.shape_known && v.shape_known) it->second = v;
  }

  void build_values() {
    const auto& g = model_.graph();
    for (const auto& vi : g.input()) set_value(vi);
    for (const auto& vi : g.output()) set_value(vi);
    for (const auto& vi : g.value_info()) set_value(vi);
    for (const auto& t : g.initializer()) {
      Value v;
      v.elem = t.data_type();
      v.shape_known = true;
      v.shape.assign(t.dims().begin(), t.dims().end());
      v.is_constant = true;
      v.int_values = int_data(t);
      values_[t.name()] = v;
      initializers_.push_back(t.name());
    }
    for (const auto& n : g.node()) {
      if ((n.op_type() != "Constant" && n.op_type() != "ConstantOfShape") || n.output_size() < 1) continue;
      auto& v = values_[n.output(0)];
      v.is_constant = true;
      if (n.op_type() == "Constant") {
        for (const auto& a : n.attribute()) {
          if (a.name() == "value") {
            v.elem = a.t().data_type();
            v.shape.assign(a.t().dims().begin(), a.t().dims().end());
            v.shape_known = true;
            v.int_values = int_data(a.t());
          } else if (a.name() == "value_int") {
            v.elem = kInt64;
            v.shape.clear();
            v.shape_known = true;
            v.int_values = std::vector<std::int64_t>{a.i()};
          } else if (a.name() == "value_ints") {
            v.elem = kInt64;
            v.shape = {a.ints_size()};
            v.shape_known = true;
            v.int_values = std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
          }
        }
      }
    }
    for (const auto& vi : g.input()) {
      const bool is_init = std::any_of(g.initializer().begin(), g.initializer().end(),
                                       [&](const onnx::TensorProto& t) { return t.name() == vi.name(); });
      if (!is_init) graph_inputs_.push_back(vi.name());
    }
    for (const auto& vi : g.output()) graph_outputs_.push_back(vi.name());
    // An empty integer value's data is known, whoever gives it: no values (a Reduce's axes input
    // of shape [0] is "reduce over every axis").
    for (auto& [name, v] : values_)
      if (!v.int_values && (v.elem == kInt64 || v.elem == onnx_code::kInt32) && is_empty_value(name))
        v.int_values = std::vector<std::int64_t>{};
  }

  std::string resolve(const std::string& name) const {
    auto cur = name;
    for (auto it = alias_.find(cur); it != alias_.end(); it = alias_.find(cur)) cur = it->second;
    return cur;
  }

  void build_work_nodes() {
    for (const auto& n : model_.graph().node()) {
      WorkNode w;
      w.proto = &n;
      w.name = n.name();
      w.op_type = n.op_type();
      w.domain = n.domain() == "ai.onnx" ? "" : n.domain();
      w.inputs.assign(n.input().begin(), n.input().end());
      w.outputs.assign(n.output().begin(), n.output().end());
      if (w.op_type == "Constant" || w.op_type == "ConstantOfShape") continue;
      if (w.domain.empty() && (w.op_type == "Identity" || w.op_type == "Dropout") && !w.inputs.empty() &&
          !w.outputs.empty()) {
        alias_[w.outputs[0]] = w.inputs[0];
        continue;  // a no-op: readers read its input (a Dropout mask output has no reader)
      }
      work_.push_back(std::move(w));
    }
    for (auto& w : work_)
      for (auto& i : w.inputs)
        if (!i.empty()) i = resolve(i);
    drop_constant_nodes();
    drop_metadata_nodes();
    drop_empty_work();
  }

  // Subgraphs that read no graph input are evaluated at load time (constant_subgraphs.hpp): their
  // nodes go, their outputs become constants.
  void drop_constant_nodes() {
    std::vector<ConstantCandidate> view;
    for (const auto& w : work_) view.push_back({&w.op_type, &w.domain, &w.inputs, &w.outputs});
    const auto folded = fold_constant_nodes(
        view, [&](const std::string& v) { const Value* val = value(v); return val && val->is_constant; },
        [&](const std::string& v) { return is_graph_output(v); });
    std::vector<WorkNode> kept;
    for (std::size_t i = 0; i < work_.size(); ++i) {
      if (!folded[i]) {
        kept.push_back(std::move(work_[i]));
        continue;
      }
      folded_reads_.insert(work_[i].inputs.begin(), work_[i].inputs.end());
      for (const auto& o : work_[i].outputs)
        if (auto it = values_.find(o); it != values_.end()) it->second.is_constant = true;
    }
    work_ = std::move(kept);
  }

  // A value with an extent 0 (an empty Slice, a Split part of size 0, a [3, 0, 5] input) is legal
  // ONNX. It holds no data, so, as shape metadata, it has no tensor: no InEdge or OutEdge.
  bool is_empty_value(const std::string& name) const {
    const Value* v = name.empty() ? nullptr : value(name);
    return v && v->shape_known && std::find(v->shape.begin(), v->shape.end(), 0) != v->shape.end();
  }

  // An input through which a node reads data that is empty. Shape metadata (int64 axes) and the
  // inputs that only give a type or a parameter (CastLike's `target_type`, Resize's roi and
  // scales) are not data.
  bool reads_empty_data(const WorkNode& w, std::size_t slot) const {
    const auto& name = w.inputs[slot];
    if (!is_empty_value(name) || (metadata_typed(name) && data_values_.count(name) == 0)) return false;
    if (w.domain.empty() && w.op_type == "CastLike" && slot == 1) return false;
    if (w.domain.empty() && w.op_type == "Resize" && (slot == 1 || slot == 2)) return false;
    return true;
  }

  // The work of empty values, in graph order: a node whose outputs are all empty does none and is
  // dropped. A Concat skips its empty parts. Any other node that reads empty data and writes a
  // non-empty value computes it from nothing (a MatMul over K = 0 gives zeros, a ReduceSum over an
  // empty axis its identity): a fill, so it is dropped and its outputs are constants, as a
  // ConstantOfShape's are (readers read them with no producer, as they read initializers).
  void drop_empty_work() {
    for (auto& w : work_) {
      const bool all_empty = std::all_of(w.outputs.begin(), w.outputs.end(), [&](const std::string& o) {
        return o.empty() || is_empty_value(o);
      });
      bool reads_empty = false;
      for (std::size_t i = 0; i < w.inputs.size(); ++i) reads_empty = reads_empty || reads_empty_data(w, i);
      if (!all_empty && !reads_empty) continue;
      if (!all_empty && w.domain.empty() && w.op_type == "Concat") {
        std::vector<std::string> parts;  // Concat's inputs are all data: drop the empty ones
        for (std::size_t i = 0; i < w.inputs.size(); ++i)
          if (!reads_empty_data(w, i)) parts.push_back(w.inputs[i]);
        w.inputs = std::move(parts);
        continue;
      }
      w.removed = true;
      for (const auto& o : w.outputs)
        if (const auto it = values_.find(o); it != values_.end() && !o.empty()) it->second.is_constant = true;
    }
  }

  bool metadata_typed(const std::string& name) const {
    const Value* v = value(name);
    return v && (v->elem == kInt64 || v->elem == kBool);
  }

  // A node writing non-metadata values reads an int64 input as data (a value it converts or
  // computes with, at 64 bits) when it is a Cast's or CastLike's input (an attention's head size
  // cast to float for its scale) or a non-constant operand of arithmetic (Pow's int64 exponent
  // tensor); a constant int64 operand of arithmetic stays a parameter.
  bool reads_int64_as_data(const WorkNode& w, std::size_t slot, const Value& v) const {
    static const std::set<std::string> arithmetic{"Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean"};
    if (!w.domain.empty() || std::all_of(w.outputs.begin(), w.outputs.end(), [&](const std::string& o) {
          return o.empty() || metadata_typed(o);
        }))
      return false;
    if (w.op_type == "Cast" || w.op_type == "CastLike") return slot == 0;
    return arithmetic.count(w.op_type) != 0 && !v.is_constant;
  }

  // Shape arithmetic (nodes whose outputs are all int64/bool) is metadata, not computation, with
  // three exceptions that are data: the int64 values a kept node computes with (above), the
  // indices ArgMax/ArgMin/TopK compute from non-metadata input, and a bool value a kept node reads
  // (an attention mask from Equal/Less/Not feeding a Where or Cast on float data), with the chain
  // that computes either. Nodes come in topological order,
  // so walking backwards sees every reader of a value before its producer.
  void drop_metadata_nodes() {
    static const std::set<std::string> index_ops{"ArgMax", "ArgMin", "TopK"};
    std::vector<bool> keep(work_.size(), true);
    for (std::size_t i = 0; i < work_.size(); ++i) {
      const auto& w = work_[i];
      if (w.domain.empty() && index_ops.count(w.op_type) != 0 && !w.inputs.empty() && !metadata_typed(w.inputs[0]))
        for (const auto& o : w.outputs)
          if (!o.empty() && metadata_typed(o)) data_values_.insert(o);
      bool metadata = !w.outputs.empty();
      for (const auto& o : w.outputs)
        if (!o.empty() && !metadata_typed(o) && data_values_.count(o) == 0) metadata = false;
      if (metadata && std::none_of(w.outputs.begin(), w.outputs.end(), [&](const std::string& o) { return data_values_.count(o) != 0; }))
        keep[i] = false;
    }
    for (std::size_t k = work_.size(); k-- > 0;) {
      const auto& w = work_[k];
      if (!keep[k])
        keep[k] = std::any_of(w.outputs.begin(), w.outputs.end(), [&](const std::string& o) { return data_values_.count(o) != 0; });
      if (!keep[k]) continue;
      for (std::size_t j = 0; j < w.inputs.size(); ++j) {
        const Value* v = w.inputs[j].empty() ? nullptr : value(resolve(w.inputs[j]));
        if (v && (v->elem == kBool || (v->elem == kInt64 && reads_int64_as_data(w, j, *v))))
          data_values_.insert(resolve(w.inputs[j]));
      }
    }
    std::vector<WorkNode> kept;
    for (std::size_t i = 0; i < work_.size(); ++i)
      if (keep[i]) kept.push_back(std::move(work_[i]));
    work_ = std::move(kept);
  }

  bool is_graph_output(const std::string& name) const {
    return std::any_of(graph_outputs_.begin(), graph_outputs_.end(), [&](const std::string& o) { return resolve(o) == name; });
  }

  std::vector<std::pair<std::size_t, std::size_t>> readers(const std::string& name) const {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t i = 0; i < work_.size(); ++i) {
      if (work_[i].removed) continue;
      for (std::size_t j = 0; j < work_[i].inputs.size(); ++j)
        if (work_[i].inputs[j] == name) out.emplace_back(i, j);
    }
    return out;
  }

  std::size_t producer(const std::string& name) const {
    for (std::size_t i = 0; i < work_.size(); ++i) {
      if (work_[i].removed) continue;
      for (const auto& o : work_[i].outputs)
        if (o == name) return i;
    }
    return work_.size();
  }

  // QDQ folding (spec §2.6): readers of a DequantizeLinear read its quantized input; a
  // QuantizeLinear folds into the producer of its input when that producer is a computation whose
  // output only it reads. What cannot fold stays and is parsed as a Cast.
  void fold_qdq() {
    static const std::set<std::string> layout{"Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze"};
    for (std::size_t i = 0; i < work_.size(); ++i) {
      auto& w = work_[i];
      if (w.removed || !w.domain.empty() || w.inputs.empty() || w.outputs.empty()) continue;
      // The scales and zero points of the integer operators are parameters, as QDQ's are, and so
      // are the single-element constants (immediates) of the comparisons and Where.
      for (auto slot : quantized_parameter_inputs(w.op_type))
        if (slot < w.inputs.size() && !w.inputs[slot].empty()) qdq_params_.insert(w.inputs[slot]);
      if (takes_immediates(w.op_type))
        for (const auto& in : w.inputs)
          if (const Value* val = in.empty() ? nullptr : value(in); val && val->is_constant && val->shape_known &&
              std::accumulate(val->shape.begin(), val->shape.end(), std::int64_t{1}, std::multiplies<>()) == 1)
            qdq_params_.insert(in);
      if (w.op_type == "DequantizeLinear") {
        for (std::size_t j = 1; j < w.inputs.size(); ++j) qdq_params_.insert(w.inputs[j]);
        const auto x = w.inputs[0], y = w.outputs[0];
        const auto rs = readers(y);
        for (auto [r, slot] : rs) work_[r].inputs[slot] = x;
        for (auto& [from, to] : alias_) if (to == y) to = x;
        // A dequantized graph output keeps its DequantizeLinear, parsed as a Cast.
        if (!rs.empty() && !is_graph_output(y)) w.removed = true;
      } else if (w.op_type == "QuantizeLinear") {
        for (std::size_t j = 1; j < w.inputs.size(); ++j) qdq_params_.insert(w.inputs[j]);
        const auto x = w.inputs[0], y = w.outputs[0];
        const auto p = producer(x);
        if (p == work_.size() || is_graph_output(x) || readers(x).size() != 1) continue;
        auto& pn = work_[p];
        if (layout.count(pn.op_type) != 0 || (pn.op_type == "QuantizeLinear" || pn.op_type == "DequantizeLinear")) continue;
        for (auto& o : pn.outputs)
          if (o == x) o = y;
        w.removed = true;
      }
    }
  }

  // An unused or empty output other than the first (a Dropout mask, MaxPool indices, LayerNorm
  // statistics nothing reads) is blanked so that parsers need not support it; the first output
  // always stays.
  OnnxValue view_value(const std::string& name, bool output) const {
    OnnxValue v;
    v.name = name;
    const Value* val = name.empty() ? nullptr : value(name);
    if (val) {
      v.onnx_type = val->elem;
      v.dtype = data_dtype(name);
      v.shape = val->shape;
      v.is_constant = val->is_constant;
      v.int_values = val->int_values;
    }
    // Unused, or empty (no data to write: a Split's part of size 0).
    if (output && !name.empty() && ((read_values_.count(name) == 0 && !is_graph_output(name)) || is_empty_value(name)))
      v.name.clear();
    return v;
  }

  bool reporting_unsupported() const {
    const auto flag = options_.get("report_unsupported");
    return flag == "1" || flag == "true" || flag == "yes" || flag == "on";
  }

  // Every op type without a parser, in order of first appearance, before any node is parsed: the
  // first one is the error, or (report_unsupported) all of them with their node counts, returned
  // for parse_nodes to report with the other unsupported things it finds.
  std::string check_parsers() const {
    struct Unsupported {
      std::string op_type, domain, first_node;
      std::size_t nodes = 0;
    };
    std::vector<Unsupported> missing;
    std::size_t total = 0;
    for (const auto& w : work_) {
      if (w.removed || registries_.onnx_parser(w.op_type)) continue;
      ++total;
      auto it = std::find_if(missing.begin(), missing.end(), [&](const Unsupported& u) { return u.op_type == w.op_type; });
      if (it == missing.end()) it = missing.insert(missing.end(), {w.op_type, w.domain.empty() ? "ai.onnx" : w.domain, w.name});
      ++it->nodes;
    }
    if (missing.empty()) return "";
    auto how = [](const std::string& op) {
      return "Register one from a plugin with PluginRegistrar::add_onnx_parser(\"" + op + "\", parser) and list \"" + op +
             "\" under provides.onnx_ops in its manifest";
    };
    // The plugins that declared the op type but did not provide it (rejected, or never registered).
    auto declared = [&](const std::string& op) {
      const auto why = registries_.why_absent(Category::OnnxOp, op);
      return why.empty() ? std::string() : " (" + why + ")";
    };
    if (reporting_unsupported()) {
      std::string list;
      for (const auto& u : missing)
        list += "\n  " + u.op_type + " (domain '" + u.domain + "')  x" + std::to_string(u.nodes) + ", first at node '" +
                u.first_node + "'" + declared(u.op_type);
      return "the model uses " + std::to_string(missing.size()) + " unsupported ONNX operator type(s) in " +
             std::to_string(total) + " node(s):" + list + "\n" + how("<op type>");
    }
    const auto& u = missing.front();
    const std::string more = total > 1 ? " (" + std::to_string(total - 1) +
                                             " more unsupported node(s); `stream parse --report-unsupported` lists them all)"
                                       : "";
    fail("unsupported ONNX operator '" + u.op_type + "' (domain '" + u.domain + "') at node '" + u.first_node +
             "': no parser is registered for op type '" + u.op_type + "'" + declared(u.op_type) + ". " + how(u.op_type) +
             more,
         u.first_node);
  }

  // --report-unsupported: the operator types without a parser and the nodes that read a tensor of
  // an element type the workload cannot hold (an int64 value computed at run time, as Swin's
  // relative-position index was before constant subgraphs were evaluated), all in one error.
  [[noreturn]] void fail_unsupported(const std::string& ops, const std::vector<std::string>& typed) const {
    std::string text = ops;
    if (!typed.empty()) {
      text += (text.empty() ? "" : "\n") + std::string("the model has ") + std::to_string(typed.size()) +
              " node(s) reading a tensor of an unsupported element type:";
      for (const auto& t : typed) text += "\n  " + t;
    }
    fail(text);
  }

  static bool is_element_type_problem(const Error& e) { return e.message().rfind("unsupported element type ", 0) == 0; }

  std::vector<Node> parse_nodes() {
    const bool report = reporting_unsupported();
    const std::string unsupported_ops = check_parsers();  // without --report-unsupported, the first one fails here
    std::vector<std::string> typed;
    std::vector<Node> out;
    ctx_ = std::make_unique<Context>(*this);
    Context& ctx = *ctx_;
    for (const auto& w : work_)
      if (!w.removed)
        for (const auto& i : w.inputs) read_values_.insert(i);
    for (const auto& w : work_) {
      if (w.removed) continue;
      OnnxNodeView view;
      view.op_type = w.op_type;
      view.domain = w.domain;
      view.name = w.name;
      view.file = file_;
      auto op = opsets_.find(w.domain);
      view.opset = op == opsets_.end() ? 0 : op->second;
      for (const auto& a : w.proto->attribute()) view.attributes[a.name()] = convert(a);
      for (const auto& i : w.inputs) view.inputs.push_back(view_value(i, false));
      for (std::size_t i = 0; i < w.outputs.size(); ++i) view.outputs.push_back(view_value(w.outputs[i], i > 0));
      const OnnxParser* parser = registries_.onnx_parser(w.op_type);
      if (parser == nullptr) continue;  // --report-unsupported: listed by check_parsers
      ctx.node = w.name;
      std::vector<Node> produced;
      try {
        produced = (*parser)(view, ctx);
      } catch (const Error& e) {
        if (report && is_element_type_problem(e)) {
          typed.push_back("node '" + w.name + "' (" + w.op_type + "): " + e.message());
          continue;
        }
        if (report && !unsupported_ops.empty()) fail_unsupported(unsupported_ops, typed);  // a node after one unparsed
        throw e.within(Location{.file = file_, .node = w.name});
      } catch (const std::bad_alloc&) {  // not the node's fault
        throw;
      } catch (const std::exception& e) {
        fail(w.op_type + " parser failed: " + e.what(), w.name);
      }
      for (auto& n : produced) {
        for (const auto& t : n.outputs) ctx.add(t);
        if (n.kind == NodeKind::FusionEdge && n.type == "Transpose") {
          auto it = view.attributes.find("perm");
          if (auto declared = ctx.perms.find(n.name); declared != ctx.perms.end()) perms_[n.name] = declared->second;
          else if (it != view.attributes.end()) perms_[n.name] = it->second.ints;
        }
        out.push_back(std::move(n));
      }
    }
    if (!unsupported_ops.empty() || !typed.empty()) fail_unsupported(unsupported_ops, typed);
    return out;
  }

  // InEdges for the graph inputs, then the initializers (QDQ scales and zero points only when
  // read as data), then Constant outputs read as data in order of first read; an OutEdge per
  // graph output, two outputs naming one value getting one each.
  Workload finish(std::vector<Node> body) {
    Context& ctx = *ctx_;
    // int64 ids and shapes are metadata; an empty initializer (Resize's absent roi or scales)
    // holds no data to move.
    auto modelled = [&](const std::string& name) {
      const Value* v = value(name);
      const bool empty = is_empty_value(name);
      return v && data_dtype(name) && !empty;
    };
    GraphEdgeOptions edges;
    for (const auto& name : graph_inputs_)
      if (modelled(name)) edges.inputs.push_back({.value = name});
    for (const auto& name : initializers_)
      if (modelled(name))
        edges.inputs.push_back({.value = name, .unless_produced = true,
                                .unless_unread = qdq_params_.count(name) != 0 || folded_reads_.count(name) != 0});
    for (const auto& out : graph_outputs_)  // a graph output computed from constants alone
      if (const auto name = resolve(out); modelled(name) && value(name)->is_constant)
        edges.inputs.push_back({.value = name, .unless_produced = true});
    for (const auto& out : graph_outputs_)
      if (const auto name = resolve(out); modelled(name)) edges.outputs.push_back({.edge_name = out, .value = name});
    edges.tensor = [&ctx](const std::string& value) { return ctx.tensor(value); };
    edges.admit_unbound_read = [this, &ctx](const Node& reader, const TensorPtr& t) {
      if (ctx.is_state(t->name)) return;
      const Value* v = value(t->name);
      if (!v || !v->is_constant)
        fail("tensor '" + t->name + "' read by node '" + reader.name + "' has no producer (is it computed by a skipped int64 node?)",
             reader.name, t->name);
    };
    auto nodes = add_graph_edges(std::move(body), edges);
    LayoutFoldingOptions fold;
    fold.perms = perms_;
    try {
      if (options_.get(kKeepLayoutOps) != "1") nodes = fold_layout_ops(std::move(nodes), fold);
      nodes = fold_reductions_into_contractions(std::move(nodes));
      // No fold_expands (core, used by the torch frontend): it would remove every Expand whose
      // readers are all computations, and an ONNX Expand stays a node in the parsed workload
      // (docs/workload-json.md); no ONNX test or fixture reads an Expand from a computation.
      return Workload(std::move(nodes));
    } catch (const Error& e) {
      throw e.within(Location{.file = file_});
    }
  }

  std::filesystem::path path_;
  std::string file_;
  const FrontendOptions& options_;
  const Registries& registries_;
  onnx::ModelProto model_;
  std::map<std::string, std::int64_t> opsets_;
  std::vector<std::string> open_symbols_;  // symbolic input dims no --dim option sets, in order of appearance
  std::unordered_map<std::string, Value> values_;
  std::vector<std::string> initializers_, graph_inputs_, graph_outputs_;
  // Values only load-time evaluation may read (inputs of folded nodes, --input values): no InEdge unless read.
  std::unordered_set<std::string> folded_reads_;
  std::unordered_map<std::string, std::string> alias_;
  std::vector<WorkNode> work_;
  std::set<std::string> qdq_params_;  // parameters (QDQ and integer-op scales, immediates): no InEdge unless read
  std::unordered_set<std::string> read_values_;  // values some remaining node reads
  std::set<std::string> data_values_;            // int64/bool values that are data, not shape metadata
  std::map<std::string, std::vector<std::int64_t>> perms_;
  std::unique_ptr<Context> ctx_;
};

bool Context::values_has(const std::string& name) const { return loader_.value(name) != nullptr; }

TensorPtr Context::tensor(const std::string& value_name) {
  auto it = tensors_.find(value_name);
  if (it != tensors_.end()) return it->second;
  auto t = loader_.make(value_name, node);
  tensors_[value_name] = t;
  return t;
}

class OnnxFrontend final : public WorkloadFrontend {
 public:
  std::string name() const override { return "onnx"; }
  bool can_load(const std::filesystem::path& source) const override { return source.extension() == ".onnx"; }
  Workload load(const std::filesystem::path& source, const FrontendOptions& options,
                const Registries& registries) const override {
    Loader loader(source, options, registries);
    return loader.run();
  }
};

}  // namespace

FrontendPtr make_onnx_frontend() { return std::make_shared<OnnxFrontend>(); }

}  // namespace stream::onnx_frontend
