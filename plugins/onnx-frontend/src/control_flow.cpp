#include "control_flow.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace stream::onnx_frontend {
namespace {

using NameMap = std::unordered_map<std::string, std::string>;

const onnx::AttributeProto* cf_attribute(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

std::vector<std::int64_t> cf_ints(const onnx::NodeProto& n, const std::string& name) {
  const auto* a = cf_attribute(n, name);
  return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : std::vector<std::int64_t>{};
}

const onnx::GraphProto* graph_attribute(const onnx::NodeProto& n, const std::string& name) {
  const auto* a = cf_attribute(n, name);
  return a && a->has_g() ? &a->g() : nullptr;
}

std::string mapped(const NameMap& m, const std::string& v) {
  const auto it = m.find(v);
  return it == m.end() ? v : it->second;
}

void rename_in_subgraphs(onnx::NodeProto& n, const NameMap& m);

// A nested graph's reads of outer values renamed (the names it defines itself are its own).
void rename_nested(onnx::GraphProto& g, const NameMap& m) {
  std::unordered_set<std::string> local;
  for (const auto& i : g.input()) local.insert(i.name());
  for (const auto& t : g.initializer()) local.insert(t.name());
  for (const auto& n : g.node()) local.insert(n.output().begin(), n.output().end());
  for (auto& n : *g.mutable_node()) {
    for (auto& in : *n.mutable_input())
      if (!in.empty() && local.count(in) == 0) in = mapped(m, in);
    rename_in_subgraphs(n, m);
  }
  for (auto& o : *g.mutable_output())
    if (local.count(o.name()) == 0) o.set_name(mapped(m, o.name()));
}

void rename_in_subgraphs(onnx::NodeProto& n, const NameMap& m) {
  for (auto& a : *n.mutable_attribute()) {
    if (a.has_g()) rename_nested(*a.mutable_g(), m);
    for (auto& g : *a.mutable_graphs()) rename_nested(g, m);
  }
}

bool truthy(const IntTensor& t) { return is_real(t.elem) ? real_of(t.values[0]) != 0 : t.values[0] != 0; }

// Builds the replacement nodes of one graph's control-flow nodes, with names unique in the graph.
class Expander {
 public:
  Expander(onnx::GraphProto& g, std::int64_t opset, const KnownValueLookup& known, const StaticShapeLookup& shape,
           const ShapeFailure& fail)
      : g_(g), opset_(opset), known_(known), shape_(shape), fail_(fail) {
    for (const auto& i : g.input()) values_.insert(i.name());
    for (const auto& t : g.initializer()) values_.insert(t.name());
    for (const auto& n : g.node()) {
      values_.insert(n.output().begin(), n.output().end());
      nodes_.insert(n.name());
    }
  }

  // Whether `n` was expanded (its replacement appended to `out`).
  bool expand(const onnx::NodeProto& n, std::vector<onnx::NodeProto>& out) {
    if (!n.domain().empty() && n.domain() != "ai.onnx") return false;
    if (n.op_type() == "If") return expand_if(n, out);
    if (n.op_type() == "Loop") return expand_loop(n, out);
    if (n.op_type() == "Scan") return expand_scan(n, out);
    return false;
  }

 private:
  std::string fresh_value(const std::string& base) {
    auto name = base;
    for (int k = 1; !values_.insert(name).second; ++k) name = base + "_" + std::to_string(k);
    return name;
  }
  std::string fresh_node(const std::string& base) {
    auto name = base;
    for (int k = 1; !nodes_.insert(name).second; ++k) name = base + "_" + std::to_string(k);
    return name;
  }

  onnx::NodeProto& add(std::vector<onnx::NodeProto>& out, const std::string& op, const std::string& name,
                       std::vector<std::string> inputs, const std::string& output) {
    auto& n = out.emplace_back();
    n.set_op_type(op);
    n.set_name(fresh_node(name));
    for (auto& i : inputs) n.add_input(i);
    n.add_output(output);
    return n;
  }

  std::string constant(std::vector<onnx::NodeProto>& out, const std::string& base, int elem, std::int64_t v,
                       bool vector = false) {
    const auto name = fresh_value(base);
    auto& n = add(out, "Constant", base, {}, name);
    auto* a = n.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto_AttributeType_TENSOR);
    auto* t = a->mutable_t();
    t->set_data_type(elem);
    if (vector) t->add_dims(1);
    if (elem == kI64) t->add_int64_data(v);
    else t->add_int32_data(static_cast<std::int32_t>(v));
    return name;
  }

  // The nodes of `body` with the values it defines renamed (`m` holds the renamings of its inputs
  // on entry, and of everything it defines on return); `prefix` names the copies.
  void inline_body(const onnx::GraphProto& body, const std::string& prefix, bool rename_values, NameMap& m,
                   std::vector<onnx::NodeProto>& out) {
    auto fresh = [&](const std::string& v) { return fresh_value(rename_values ? prefix + "/" + v : v); };
    for (const auto& t : body.initializer()) {
      auto* copy = g_.add_initializer();
      *copy = t;
      copy->set_name(m[t.name()] = fresh(t.name()));
    }
    int index = 0;
    for (const auto& node : body.node()) {
      auto& c = out.emplace_back(node);
      for (auto& in : *c.mutable_input())
        if (!in.empty()) in = mapped(m, in);
      rename_in_subgraphs(c, m);
      for (auto& o : *c.mutable_output())
        if (!o.empty()) o = m[o] = fresh(o);
      c.set_name(fresh_node(prefix + "/" + (node.name().empty() ? node.op_type() + std::to_string(index) : node.name())));
      ++index;
    }
  }

  bool expand_if(const onnx::NodeProto& n, std::vector<onnx::NodeProto>& out) {
    const IntTensor* c = n.input_size() > 0 ? known_(n.input(0)) : nullptr;
    if (!c || c->values.size() != 1) return false;
    const bool taken = truthy(*c);
    const auto* branch = graph_attribute(n, taken ? "then_branch" : "else_branch");
    if (!branch) fail_("If node '" + n.name() + "' has no " + (taken ? "then_branch" : "else_branch"), n.name(), "");
    if (branch->output_size() < n.output_size())
      fail_("If node '" + n.name() + "' has " + std::to_string(n.output_size()) + " outputs but its branch returns " +
                std::to_string(branch->output_size()),
            n.name(), "");
    NameMap m;
    inline_body(*branch, n.name(), /*rename_values=*/false, m, out);
    for (int k = 0; k < n.output_size(); ++k)
      if (!n.output(k).empty())
        add(out, "Identity", n.name() + "/output" + std::to_string(k), {mapped(m, branch->output(k).name())}, n.output(k));
    return true;
  }

  // Whether the body's condition output is its condition input (through Identity nodes) or a
  // constant true: the loop then runs exactly its trip count.
  static bool runs_full_count(const onnx::GraphProto& body) {
    if (body.input_size() < 2 || body.output_size() < 1) return false;
    std::unordered_map<std::string, const onnx::NodeProto*> producer;
    for (const auto& n : body.node())
      for (const auto& o : n.output()) producer[o] = &n;
    auto v = body.output(0).name();
    for (int steps = 0; steps <= body.node_size(); ++steps) {
      if (v == body.input(1).name()) return true;
      const auto it = producer.find(v);
      if (it == producer.end()) return false;
      const auto& p = *it->second;
      if (p.op_type() == "Identity" && p.input_size() == 1) {
        v = p.input(0);
        continue;
      }
      if (p.op_type() != "Constant") return false;
      const auto* a = cf_attribute(p, "value");
      const auto t = a ? small_tensor(a->t()) : std::nullopt;
      return t && t->values.size() == 1 && truthy(*t);
    }
    return false;
  }

  // Per-iteration values stacked along a new `axis` into `output` (Unsqueeze each, then Concat).
  void stack(std::vector<onnx::NodeProto>& out, const std::vector<std::string>& items, std::int64_t axis,
             const std::string& prefix, const std::string& output) {
    std::vector<std::string> parts;
    for (const auto& item : items) {
      const auto u = fresh_value(item + "/stacked");
      if (opset_ >= 13) {
        const auto axes = constant(out, prefix + "/axes", kI64, axis, /*vector=*/true);
        add(out, "Unsqueeze", prefix + "/Unsqueeze", {item, axes}, u);
      } else {
        auto& node = add(out, "Unsqueeze", prefix + "/Unsqueeze", {item}, u);
        auto* a = node.add_attribute();
        a->set_name("axes");
        a->set_type(onnx::AttributeProto_AttributeType_INTS);
        a->add_ints(axis);
      }
      parts.push_back(u);
    }
    auto& concat = add(out, "Concat", prefix + "/Concat", parts, output);
    auto* a = concat.add_attribute();
    a->set_name("axis");
    a->set_type(onnx::AttributeProto_AttributeType_INT);
    a->set_i(axis);
  }

  void check_size(const onnx::NodeProto& n, std::int64_t trips, const onnx::GraphProto& body) {
    if (trips * std::max(1, body.node_size()) <= kMaxUnrolledNodes) return;
    fail_(n.op_type() + " node '" + n.name() + "' runs " + std::to_string(trips) + " iterations of " +
              std::to_string(body.node_size()) + " nodes: unrolled it would exceed " + std::to_string(kMaxUnrolledNodes) +
              " nodes",
          n.name(), "");
  }

  bool expand_loop(const onnx::NodeProto& n, std::vector<onnx::NodeProto>& out) {
    const auto* body = graph_attribute(n, "body");
    const IntTensor* m_count = n.input_size() > 0 && !n.input(0).empty() ? known_(n.input(0)) : nullptr;
    const bool has_cond = n.input_size() > 1 && !n.input(1).empty();
    const IntTensor* cond = has_cond ? known_(n.input(1)) : nullptr;
    if (!body || !m_count || m_count->values.size() != 1 || (has_cond && (!cond || cond->values.size() != 1))) return false;
    const int carried_count = n.input_size() - 2;
    const int scan_count = body->output_size() - 1 - carried_count;
    if (carried_count < 0 || scan_count < 0 || body->input_size() != 2 + carried_count)
      fail_("Loop node '" + n.name() + "' has a body whose inputs and outputs do not match its " +
                std::to_string(std::max(0, carried_count)) + " loop-carried values",
            n.name(), "");
    if (!runs_full_count(*body))
      fail_("Loop node '" + n.name() + "' cannot be unrolled: its body computes its own stop condition '" +
                body->output(0).name() + "', so the number of iterations is not known at load time",
            n.name(), body->output(0).name());
    const std::int64_t trips = has_cond && !truthy(*cond) ? 0 : std::max<std::int64_t>(0, m_count->values[0]);
    check_size(n, trips, *body);
    if (trips == 0 && scan_count > 0)
      fail_("Loop node '" + n.name() + "' runs no iteration, so its scan outputs are empty tensors", n.name(), "");
    std::vector<std::string> carried(n.input().begin() + 2, n.input().end());
    std::vector<std::vector<std::string>> scans(static_cast<std::size_t>(scan_count));
    for (std::int64_t t = 0; t < trips; ++t) {
      const auto prefix = n.name() + "/it" + std::to_string(t);
      NameMap m;
      m[body->input(0).name()] = constant(out, prefix + "/" + body->input(0).name(), kI64, t);
      m[body->input(1).name()] = constant(out, prefix + "/" + body->input(1).name(), kBool, 1);
      for (int j = 0; j < carried_count; ++j) m[body->input(2 + j).name()] = carried[static_cast<std::size_t>(j)];
      inline_body(*body, prefix, /*rename_values=*/true, m, out);
      for (int j = 0; j < carried_count; ++j) carried[static_cast<std::size_t>(j)] = mapped(m, body->output(1 + j).name());
      for (int k = 0; k < scan_count; ++k)
        scans[static_cast<std::size_t>(k)].push_back(mapped(m, body->output(1 + carried_count + k).name()));
    }
    for (int j = 0; j < carried_count && j < n.output_size(); ++j)
      if (!n.output(j).empty())
        add(out, "Identity", n.name() + "/final" + std::to_string(j), {carried[static_cast<std::size_t>(j)]}, n.output(j));
    for (int k = 0; k < scan_count && carried_count + k < n.output_size(); ++k)
      if (!n.output(carried_count + k).empty())
        stack(out, scans[static_cast<std::size_t>(k)], 0, n.name() + "/scan" + std::to_string(k), n.output(carried_count + k));
    return true;
  }

  bool expand_scan(const onnx::NodeProto& n, std::vector<onnx::NodeProto>& out) {
    const auto* body = graph_attribute(n, "body");
    const auto* num = cf_attribute(n, "num_scan_inputs");
    if (!body || !num) return false;
    if (opset_ < 9)
      fail_("Scan node '" + n.name() + "' is the batched Scan of opset 8, which is not supported (opset 9 on is)", n.name(), "");
    const auto scan_inputs = static_cast<int>(num->i());
    const int state_count = n.input_size() - scan_inputs;
    const int scan_outputs = body->output_size() - state_count;
    if (scan_inputs < 1 || state_count < 0 || scan_outputs < 0 || body->input_size() != n.input_size())
      fail_("Scan node '" + n.name() + "' has a body whose inputs and outputs do not match its own", n.name(), "");
    const auto in_axes = cf_ints(n, "scan_input_axes"), in_dirs = cf_ints(n, "scan_input_directions");
    const auto out_axes = cf_ints(n, "scan_output_axes"), out_dirs = cf_ints(n, "scan_output_directions");
    auto at = [](const std::vector<std::int64_t>& v, int i) { return i < static_cast<int>(v.size()) ? v[static_cast<std::size_t>(i)] : 0; };
    std::vector<std::int64_t> axes;
    std::int64_t trips = -1;
    for (int i = 0; i < scan_inputs; ++i) {
      const auto* shape = shape_(n.input(state_count + i));
      if (!shape) return false;
      auto axis = at(in_axes, i);
      const auto rank = static_cast<std::int64_t>(shape->size());
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank)
        fail_("Scan node '" + n.name() + "': scan axis out of range for '" + n.input(state_count + i) + "'", n.name(), "");
      axes.push_back(axis);
      const auto extent = (*shape)[static_cast<std::size_t>(axis)];
      if (trips >= 0 && extent != trips)
        fail_("Scan node '" + n.name() + "': its scan inputs have different extents along their scan axes", n.name(), "");
      trips = extent;
    }
    check_size(n, trips, *body);
    if (trips <= 0) fail_("Scan node '" + n.name() + "' scans an empty axis", n.name(), "");
    std::vector<std::string> state(n.input().begin(), n.input().begin() + state_count);
    std::vector<std::vector<std::string>> scans(static_cast<std::size_t>(scan_outputs));
    for (std::int64_t t = 0; t < trips; ++t) {
      const auto prefix = n.name() + "/it" + std::to_string(t);
      NameMap m;
      for (int j = 0; j < state_count; ++j) m[body->input(j).name()] = state[static_cast<std::size_t>(j)];
      for (int i = 0; i < scan_inputs; ++i) {
        const auto index = at(in_dirs, i) == 1 ? trips - 1 - t : t;
        const auto idx = constant(out, prefix + "/index" + std::to_string(i), kI64, index);
        const auto slice = fresh_value(prefix + "/" + body->input(state_count + i).name());
        auto& g = add(out, "Gather", prefix + "/slice" + std::to_string(i), {n.input(state_count + i), idx}, slice);
        auto* a = g.add_attribute();
        a->set_name("axis");
        a->set_type(onnx::AttributeProto_AttributeType_INT);
        a->set_i(axes[static_cast<std::size_t>(i)]);
        m[body->input(state_count + i).name()] = slice;
      }
      inline_body(*body, prefix, /*rename_values=*/true, m, out);
      for (int j = 0; j < state_count; ++j) state[static_cast<std::size_t>(j)] = mapped(m, body->output(j).name());
      for (int k = 0; k < scan_outputs; ++k)
        scans[static_cast<std::size_t>(k)].push_back(mapped(m, body->output(state_count + k).name()));
    }
    for (int j = 0; j < state_count && j < n.output_size(); ++j)
      if (!n.output(j).empty())
        add(out, "Identity", n.name() + "/final" + std::to_string(j), {state[static_cast<std::size_t>(j)]}, n.output(j));
    for (int k = 0; k < scan_outputs && state_count + k < n.output_size(); ++k) {
      auto items = scans[static_cast<std::size_t>(k)];
      if (at(out_dirs, k) == 1) std::reverse(items.begin(), items.end());
      if (!n.output(state_count + k).empty())
        stack(out, items, at(out_axes, k), n.name() + "/scan" + std::to_string(k), n.output(state_count + k));
    }
    return true;
  }

  onnx::GraphProto& g_;
  std::int64_t opset_;
  const KnownValueLookup& known_;
  const StaticShapeLookup& shape_;
  const ShapeFailure& fail_;
  std::unordered_set<std::string> values_, nodes_;
};

bool is_control_flow(const onnx::NodeProto& n) {
  return (n.domain().empty() || n.domain() == "ai.onnx") &&
         (n.op_type() == "If" || n.op_type() == "Loop" || n.op_type() == "Scan");
}

// What `value` is computed from: the graph inputs (not initializers) and the nodes whose output
// extent is data-dependent (NonZero, ...), which no value given at load time can decide.
struct Dependencies {
  std::vector<const onnx::ValueInfoProto*> inputs;
  std::vector<const onnx::NodeProto*> data_dependent;
};

bool data_dependent_extent(const onnx::NodeProto& n) {
  static const std::set<std::string> ops{"NonZero", "Unique", "NonMaxSuppression", "Compress"};
  return (n.domain().empty() || n.domain() == "ai.onnx") && ops.count(n.op_type()) != 0;
}

Dependencies dependencies(const onnx::GraphProto& g, const std::string& value) {
  std::unordered_map<std::string, const onnx::NodeProto*> producer;
  for (const auto& n : g.node())
    for (const auto& o : n.output()) producer[o] = &n;
  std::set<std::string> inits;
  for (const auto& t : g.initializer()) inits.insert(t.name());
  std::map<std::string, const onnx::ValueInfoProto*> inputs;
  for (const auto& i : g.input())
    if (inits.count(i.name()) == 0) inputs.emplace(i.name(), &i);
  Dependencies found;
  std::map<std::string, const onnx::ValueInfoProto*> reached;
  std::vector<std::string> stack{value};
  std::unordered_set<std::string> seen;
  while (!stack.empty()) {
    const auto v = stack.back();
    stack.pop_back();
    if (v.empty() || !seen.insert(v).second) continue;
    if (const auto it = inputs.find(v); it != inputs.end()) reached.insert(*it);
    const auto it = producer.find(v);
    if (it == producer.end()) continue;
    if (data_dependent_extent(*it->second)) found.data_dependent.push_back(it->second);
    stack.insert(stack.end(), it->second->input().begin(), it->second->input().end());
  }
  for (const auto& [name, info] : reached) found.inputs.push_back(info);
  return found;
}

// Whether --input can give the input a value: a scalar or one-element tensor (input_values.hpp).
bool one_element(const onnx::ValueInfoProto& v) {
  const auto& dims = v.type().tensor_type().shape().dim();
  return std::all_of(dims.begin(), dims.end(), [](const auto& d) { return d.has_dim_value() && d.dim_value() == 1; });
}

// How to decide a value: the --input options for the scalar graph inputs it depends on; when it
// depends only on run-time data (a data-dependent extent, or the contents of tensor inputs), that
// it is decided at run time, which a static cost model cannot follow.
std::string how_to_decide(const onnx::GraphProto& g, const std::string& value) {
  const auto deps = dependencies(g, value);
  if (!deps.data_dependent.empty()) {
    const auto& first = *deps.data_dependent.front();
    const auto more = deps.data_dependent.size() - 1;
    return "it is decided at run time by the data: it depends on " + first.op_type() + " '" + first.name() +
           "', whose output extent is known only when the model runs" +
           (more > 0 ? " (and " + std::to_string(more) + " more such node(s))" : std::string()) +
           "; a static cost model cannot follow it: export the model without that data-dependent part (a "
           "detector without its box post-processing, for instance)";
  }
  std::string options, tensors;
  for (const auto* i : deps.inputs) {
    if (one_element(*i)) options += (options.empty() ? "--input " : ", --input ") + i->name() + "=VALUE";
    else tensors += (tensors.empty() ? "'" : ", '") + i->name() + "'";
  }
  if (!options.empty())
    return "make it computable from constants, or give the graph input(s) it depends on a value: " + options;
  if (!tensors.empty())
    return "it is decided at run time by the contents of graph input(s) " + tensors +
           ", which are tensors (--input gives only scalar values); a static cost model cannot follow it: export "
           "the model with the decision fixed";
  return "make it computable from constants (it depends on no graph input, but on values not known at load time)";
}

}  // namespace

std::size_t expand_control_flow(onnx::GraphProto& g, std::int64_t opset, const KnownValueLookup& known,
                                const StaticShapeLookup& static_shape, const ShapeFailure& fail) {
  if (std::none_of(g.node().begin(), g.node().end(), is_control_flow)) return 0;
  Expander expander(g, opset, known, static_shape, fail);
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  std::size_t expanded = 0;
  for (const auto& n : g.node()) {
    std::vector<onnx::NodeProto> replacement;
    if (!is_control_flow(n) || !expander.expand(n, replacement)) {
      *nodes.Add() = n;
      continue;
    }
    ++expanded;
    for (auto& r : replacement) *nodes.Add() = std::move(r);
    if (nodes.size() > kMaxExpandedGraphNodes)
      fail(n.op_type() + " node '" + n.name() + "': expanding the model's control flow makes more than " +
               std::to_string(kMaxExpandedGraphNodes) + " nodes (nested loops multiply their trip counts)",
           n.name(), "");
  }
  if (expanded > 0) g.mutable_node()->Swap(&nodes);
  return expanded;
}

std::vector<std::string> subgraph_reads(const onnx::GraphProto& graph) {
  std::vector<std::string> out;
  for (const auto& n : graph.node())
    for (const auto& a : n.attribute()) {
      std::vector<const onnx::GraphProto*> graphs;
      if (a.has_g()) graphs.push_back(&a.g());
      for (const auto& g : a.graphs()) graphs.push_back(&g);
      for (const auto* g : graphs) {
        for (const auto& inner : g->node()) out.insert(out.end(), inner.input().begin(), inner.input().end());
        for (const auto& o : g->output()) out.push_back(o.name());
        const auto nested = subgraph_reads(*g);
        out.insert(out.end(), nested.begin(), nested.end());
      }
    }
  return out;
}

void reject_control_flow(const onnx::GraphProto& g, const KnownValueLookup& known, const ShapeFailure& fail) {
  for (const auto& n : g.node()) {
    if (!is_control_flow(n)) continue;
    const std::string what = n.op_type() + " node '" + n.name() + "'";
    if (n.op_type() == "If") {
      const auto cond = n.input_size() > 0 ? n.input(0) : std::string();
      fail(what + " cannot be resolved at load time: its condition '" + cond + "' is not known; " + how_to_decide(g, cond),
           n.name(), cond);
    }
    if (n.op_type() == "Scan")
      fail(what + " cannot be unrolled: the extent of its scan input along the scan axis is not static", n.name(), "");
    if (n.input_size() < 1 || n.input(0).empty())
      fail(what + " has no trip count (a while-loop whose iterations depend on values computed at run time): it "
                  "cannot be unrolled at load time",
           n.name(), "");
    const bool count = known(n.input(0)) == nullptr || n.input_size() < 2;
    const std::string undecided = count ? n.input(0) : n.input(1);
    fail(what + " cannot be unrolled: its " + (count ? "trip count '" : "initial condition '") + undecided +
             "' is not known at load time; " + how_to_decide(g, undecided),
         n.name(), undecided);
  }
}

}  // namespace stream::onnx_frontend
