#include "static_shapes.hpp"

#include "own_shape_rules.hpp"
#include "schema_lookup.hpp"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <deque>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "control_flow.hpp"
#include "parser_util.hpp"
#include "shape_values.hpp"

namespace stream::onnx_frontend {
namespace {

using Dims = std::vector<std::int64_t>;

// Static shapes and element types of the graph's values after a round of inference; `set`
// declares a completed shape as a value_info the next round starts from. Lookups only.
class ValueIndex {
 public:
  explicit ValueIndex(onnx::GraphProto& g) : g_(g) {
    for (auto* list : {g.mutable_input(), g.mutable_output(), g.mutable_value_info()})
      for (auto& v : *list) add_info(v);
    for (const auto& t : g.initializer()) {
      if (infos_.count(t.name()) != 0) continue;
      elems_[t.name()] = t.data_type();
      shapes_[t.name()] = Dims(t.dims().begin(), t.dims().end());
      auto& type = initializer_types_.emplace_back();
      type.mutable_tensor_type()->set_elem_type(t.data_type());
      for (auto d : t.dims()) type.mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
      types_[t.name()] = &type;
    }
  }

  /// Every typed value, as ONNX's per-node inference reads them.
  const std::unordered_map<std::string, onnx::TypeProto*>& types() const { return types_; }

  const Dims* static_shape(const std::string& name) const {
    auto it = shapes_.find(name);
    return it == shapes_.end() ? nullptr : &it->second;
  }
  int elem(const std::string& name) const {
    auto it = elems_.find(name);
    return it == elems_.end() ? 0 : it->second;
  }

  void set(const std::string& name, int elem, const Dims& shape) {
    auto it = infos_.find(name);
    onnx::ValueInfoProto* vi = it != infos_.end() ? it->second : g_.add_value_info();
    if (it == infos_.end()) {
      vi->set_name(name);
      infos_[name] = vi;
      types_[name] = vi->mutable_type();
    }
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    if (tt->elem_type() == 0) tt->set_elem_type(elem);
    tt->mutable_shape()->clear_dim();
    for (auto d : shape) tt->mutable_shape()->add_dim()->set_dim_value(d);
    shapes_[name] = shape;
    elems_[name] = tt->elem_type();
  }

 private:
  void add_info(onnx::ValueInfoProto& v) {
    if (!v.type().has_tensor_type()) return;
    infos_[v.name()] = &v;
    types_[v.name()] = v.mutable_type();
    const auto& tt = v.type().tensor_type();
    elems_[v.name()] = tt.elem_type();
    if (!tt.has_shape()) return;
    Dims dims;
    for (const auto& d : tt.shape().dim()) {
      if (!d.has_dim_value()) return;
      dims.push_back(d.dim_value());
    }
    shapes_[v.name()] = std::move(dims);
  }

  onnx::GraphProto& g_;
  std::unordered_map<std::string, onnx::ValueInfoProto*> infos_;
  std::unordered_map<std::string, Dims> shapes_;
  std::unordered_map<std::string, int> elems_;
  std::unordered_map<std::string, onnx::TypeProto*> types_;
  std::deque<onnx::TypeProto> initializer_types_;  // stable addresses for types_
};

// Einsum output extents from the equation.
std::optional<Dims> einsum_shape(const onnx::NodeProto& n, const ValueIndex& index) {
  std::string equation;
  for (const auto& a : n.attribute())
    if (a.name() == "equation") equation = a.s();
  std::vector<const Dims*> shapes;
  std::vector<std::size_t> ranks;
  for (const auto& i : n.input()) {
    const auto* s = index.static_shape(i);
    if (!s) return std::nullopt;
    shapes.push_back(s);
    ranks.push_back(s->size());
  }
  const auto terms = expand_einsum(equation, ranks);
  if (!terms) return std::nullopt;
  std::map<char, std::int64_t> extent;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (std::size_t a = 0; a < terms->inputs[i].size(); ++a) {
      auto& e = extent[terms->inputs[i][a]];
      e = std::max(e, (*shapes[i])[a]);
    }
  Dims out;
  for (char c : terms->output) {
    if (extent.count(c) == 0) return std::nullopt;
    out.push_back(extent[c]);
  }
  return out;
}

bool has_static_outputs(const onnx::NodeProto& n, const ValueIndex& index) {
  for (const auto& o : n.output())
    if (!o.empty() && !index.static_shape(o)) return false;
  return true;
}

// The element type a shape-preserving node writes: Cast's `to`, CastLike's second input's type,
// else its input's type.
int preserved_elem(const onnx::NodeProto& n, const ValueIndex& index) {
  if (n.op_type() == "Cast")
    for (const auto& a : n.attribute())
      if (a.name() == "to") return static_cast<int>(a.i());
  if (n.op_type() == "CastLike" && n.input_size() > 1) return index.elem(n.input(1));
  return index.elem(n.input(0));
}

// Shapes ONNX 1.12 cannot give: an activation it has no schema for keeps its input's shape, and so
// does a Cast to a type newer than its enum (FLOAT8E4M3FN = 17 and up: element_types.hpp), which
// its inference rejects as "not a valid type"; an Einsum's extents follow from its equation. True
// when the output got a shape.
bool complete_node(const onnx::NodeProto& n, ValueIndex& index) {
  static const std::set<std::string> shape_preserving{"Gelu", "Silu",  "Swish", "Mish", "QuickGelu", "FastGelu",
                                                      "HardSwish", "Relu", "Sigmoid", "Tanh", "Erf", "Cast",
                                                      "CastLike"};
  if (n.input_size() < 1 || n.output_size() < 1 || index.static_shape(n.output(0))) return false;
  std::optional<Dims> out;
  if (shape_preserving.count(n.op_type()) != 0) {
    if (const auto* in = index.static_shape(n.input(0))) out = *in;
  } else if (n.op_type() == "Einsum") {
    out = einsum_shape(n, index);
  }
  if (out) index.set(n.output(0), preserved_elem(n, index), *out);
  return out.has_value();
}

// The input that gives an output's axes (one value per axis): ONNX builds that many axes from its
// length, so a length beyond kMaxRank is refused before ONNX is asked.
void check_shape_input(const onnx::NodeProto& n, const ValueIndex& index, const ShapeFailure& fail) {
  static const std::map<std::string, int> shape_slot{{"Reshape", 1}, {"Expand", 1}, {"Tile", 1}, {"ConstantOfShape", 0},
                                                     {"Unsqueeze", 1}, {"Resize", 3}};
  const auto slot = shape_slot.find(n.op_type());
  if (slot == shape_slot.end() || slot->second >= n.input_size()) return;
  const auto& value = n.input(slot->second);
  const auto* shape = value.empty() ? nullptr : index.static_shape(value);
  if (!shape || shape->size() != 1 || (*shape)[0] <= kMaxRank) return;
  fail("node '" + n.name() + "' (" + n.op_type() + ") takes its " + (n.op_type() == "Unsqueeze" ? "axes" : "shape") +
           " from '" + value + "', a tensor of " + std::to_string((*shape)[0]) + " values; no tensor has more than " +
           std::to_string(kMaxRank) + " axes",
       n.name(), value);
}

// ONNX's Conv inference takes a missing kernel_shape from the weight's axes 2.. and then reads one
// per spatial axis of the input: a weight of another rank than the input reads past its shape
// (a crash found by fuzz/onnx), so unequal ranks are refused before ONNX is asked.
void check_conv_ranks(const onnx::NodeProto& n, const ValueIndex& index, const ShapeFailure& fail) {
  if ((n.op_type() != "Conv" && n.op_type() != "ConvInteger") || n.input_size() < 2) return;
  const auto* x = n.input(0).empty() ? nullptr : index.static_shape(n.input(0));
  const auto* w = n.input(1).empty() ? nullptr : index.static_shape(n.input(1));
  if (!x || !w || x->size() == w->size()) return;
  fail("node '" + n.name() + "' (" + n.op_type() + ") convolves '" + n.input(0) + "' of rank " +
           std::to_string(x->size()) + " with weight '" + n.input(1) + "' of rank " + std::to_string(w->size()) +
           " (the ranks must be equal)",
       n.name(), n.input(1));
}

bool default_domain(const onnx::NodeProto& n) { return n.domain().empty() || n.domain() == "ai.onnx"; }

// Our rule for a node whose schema libonnx lacks or has only in an older form (own_shape_rules.hpp).
// An output ONNX left open gets the rule's shape; one already known (declared by the model) must
// agree with it, as ONNX's own inference requires of a declared shape. True when an output got a
// shape.
bool apply_own_rule(const onnx::NodeProto& n, std::int64_t opset, ValueIndex& index,
                    const std::unordered_map<std::string, const onnx::TensorProto*>& data, const ShapeFailure& fail) {
  const ShapeRuleInputs in{
      .shape = [&](const std::string& v) { return index.static_shape(v); },
      .elem = [&](const std::string& v) { return index.elem(v); },
      .constant = [&](const std::string& v) -> const onnx::TensorProto* {
        const auto it = data.find(v);
        return it == data.end() ? nullptr : it->second;
      }};
  const auto outputs = own_output_shapes(n, opset, in, [&](const std::string& m) {
    fail("node '" + n.name() + "' (" + n.op_type() + "): " + m, n.name(), "");
  });
  bool any = false;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& name = n.output(static_cast<int>(i));
    if (name.empty() || !outputs[i]) continue;
    if (const auto* known = index.static_shape(name)) {
      if (*known == outputs[i]->shape) continue;
      auto str = [](const Dims& d) {
        std::string s;
        for (auto x : d) s += (s.empty() ? "" : "x") + std::to_string(x);
        return "(" + s + ")";
      };
      fail("node '" + n.name() + "' (" + n.op_type() + "): output '" + name + "' is declared " + str(*known) +
               " but the operator's shape rule gives " + str(outputs[i]->shape),
           n.name(), name);
    }
    index.set(name, outputs[i]->elem, outputs[i]->shape);
    any = true;
  }
  return any;
}

// ONNX's inference function of one default-domain node, run on the shapes and constant data known
// now (so that what a node folded just before it gives is used at once). True when an output got
// a static shape.
bool infer_node(onnx::NodeProto& n, std::int64_t opset, ValueIndex& index,
                const std::unordered_map<std::string, const onnx::TensorProto*>& data, const ShapeFailure& fail) {
  if (!default_domain(n) || opset <= 0) return false;
  check_shape_input(n, index, fail);
  check_conv_ranks(n, index, fail);
  const auto* schema = LazySchemaRegistry::instance().GetSchema(n.op_type(), static_cast<int>(opset), "");
  if (!schema || !schema->has_type_and_shape_inference_function()) return false;
  static const std::unordered_map<std::string, const onnx::SparseTensorProto*> no_sparse;
  onnx::shape_inference::InferenceContextImpl ctx(n, index.types(), data, no_sparse);
  try {
    schema->GetTypeAndShapeInferenceFunction()(ctx);
  } catch (const std::bad_alloc&) {  // out of memory is not a node ONNX cannot infer
    throw;
  } catch (const std::exception&) {
    return false;  // as ONNX's own pass: a node it cannot infer keeps its outputs unknown
  }
  bool any = false;
  for (int i = 0; i < n.output_size(); ++i) {
    const auto& t = *ctx.getOutputType(static_cast<std::size_t>(i));
    if (n.output(i).empty() || index.static_shape(n.output(i)) || !t.has_tensor_type() || !t.tensor_type().has_shape())
      continue;
    Dims dims;
    for (const auto& d : t.tensor_type().shape().dim())
      if (d.has_dim_value()) dims.push_back(d.dim_value());
    if (static_cast<int>(dims.size()) != t.tensor_type().shape().dim_size()) continue;
    index.set(n.output(i), t.tensor_type().elem_type(), dims);
    any = true;
  }
  return any;
}

// One pass in graph order: fold shape arithmetic, and give a static shape to every output ONNX's
// last round left open. Linear in the graph: each node is looked at once. Returns what changed.
std::size_t fill_gaps(onnx::GraphProto& g, std::int64_t opset, const ShapeFailure& fail) {
  ValueIndex index(g);
  ShapeValueFolder folder(g, opset);
  std::unordered_map<std::string, const onnx::TensorProto*> data;  // constant inputs, lookups only
  for (const auto& t : g.initializer()) data[t.name()] = &t;
  const StaticShapeLookup lookup = [&](const std::string& v) { return index.static_shape(v); };
  std::size_t changed = 0;
  for (auto& n : *g.mutable_node()) {
    const bool folded = folder.fold(n, lookup);
    if (n.op_type() == "Constant" && n.output_size() == 1) {
      for (const auto& a : n.attribute())
        if (a.name() == "value" && a.has_t()) {
          data[n.output(0)] = &a.t();
          if (folded) index.set(n.output(0), a.t().data_type(), Dims(a.t().dims().begin(), a.t().dims().end()));
        }
    }
    if (folded) {
      ++changed;
      continue;
    }
    if ((default_domain(n) || n.domain() == "ai.onnx.preview") && has_own_shape_rule(n.op_type(), opset)) {
      if (apply_own_rule(n, opset, index, data, fail)) ++changed;
      continue;
    }
    if (has_static_outputs(n, index)) continue;
    if (infer_node(n, opset, index, data, fail) || complete_node(n, index)) ++changed;
  }
  const KnownValueLookup known = [&](const std::string& v) { return folder.value(v); };
  return changed + expand_control_flow(g, opset, known, lookup, fail);
}

// The control-flow nodes no round could resolve are errors; the values known after the last
// round decide what is left.
void reject_unresolved(onnx::GraphProto& g, std::int64_t opset, const ShapeFailure& fail) {
  ShapeValueFolder folder(g, opset);
  for (auto& n : *g.mutable_node()) folder.fold(n, [](const std::string&) { return nullptr; });
  reject_control_flow(g, [&](const std::string& v) { return folder.value(v); }, fail);
}

// libonnx 1.12's data propagator for Shape reads its input's type without a null check: a Shape
// of a value no node could type (an unknown operator upstream, or one whose inference failed)
// crashes the process inside ONNX. An element-type-less placeholder keeps ONNX's own inference
// intact (it fills the placeholder when the producer is typed) and only stops the dereference.
void declare_shape_inputs(onnx::GraphProto& g) {
  std::set<std::string> declared;
  for (const auto* list : {&g.input(), &g.output(), &g.value_info()})
    for (const auto& v : *list)
      if (v.type().has_tensor_type()) declared.insert(v.name());
  for (const auto& t : g.initializer()) declared.insert(t.name());
  for (const auto& n : g.node()) {
    if (n.op_type() != "Shape" || n.input_size() == 0 || n.input(0).empty()) continue;
    if (!declared.insert(n.input(0)).second) continue;
    auto* vi = g.add_value_info();
    vi->set_name(n.input(0));
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::UNDEFINED);
  }
}

// The schemas ONNX's whole-graph inference may use: an operator whose shape rule is ours at this
// opset has none there, so that libonnx's older rule never gives it a shape (our pass does).
class OwnRulesFirst final : public onnx::ISchemaRegistry {
 public:
  const onnx::OpSchema* GetSchema(const std::string& key, int maxInclusiveVersion, const std::string& domain) const override {
    if ((domain.empty() || domain == "ai.onnx") && has_own_shape_rule(key, maxInclusiveVersion)) return nullptr;
    return LazySchemaRegistry::instance().GetSchema(key, maxInclusiveVersion, domain);
  }
};

}  // namespace

void infer_static_shapes(onnx::ModelProto& model, std::int64_t default_opset, const ShapeFailure& fail) {
  // Type checks off: the ONNX schemas reject the bf16/int8 convolutions the seed's fixtures use.
  const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0, /*enable_data_propagation=*/true);
  auto run_inference = [&] {
    declare_shape_inputs(*model.mutable_graph());
    try {
      static const OwnRulesFirst registry;
      onnx::shape_inference::InferShapes(model, &registry, options);
    } catch (const std::bad_alloc&) {  // not the model's fault
      throw;
    } catch (const std::exception& e) {
      fail(std::string("ONNX shape inference failed: ") + e.what(), "", "");
    }
  };
  // Our pass, then ONNX's over what it completed, until our pass changes nothing: a chain of gaps
  // resolves within one pass of ours, in graph order.
  for (int round = 0; round < kMaxShapeRounds; ++round) {
    if (fill_gaps(*model.mutable_graph(), default_opset, fail) == 0 && round > 0) break;
    run_inference();
  }
  reject_unresolved(*model.mutable_graph(), default_opset, fail);
}

}  // namespace stream::onnx_frontend
