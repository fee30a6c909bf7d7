// Lowering a decoded ExportedProgram to the affine workload: converter lookup (plugins first, then
// the built-in table), InEdges for parameters/buffers/constants/user inputs, OutEdges for the user
// outputs (core add_graph_edges, shared with the ONNX frontend), then the core layout and expand folding.
#include <cctype>
#include <map>
#include <algorithm>
#include <set>

#include <stream/error.hpp>
#include <stream/ir/expand_folding.hpp>
#include <stream/ir/graph_edges.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/ir/layout_folding.hpp>

#include "program.hpp"
#include "stream_torch/torch_frontend.hpp"

namespace stream::torch_frontend {
namespace {

using detail::Program;

std::string how_to_register(const std::string& op) {
  return "Register a converter from a plugin with PluginRegistrar::add_onnx_parser(\"" + op +
         "\", parser) and list \"" + op +
         "\" under provides.onnx_ops in its manifest (the parser receives the call as an OnnxNodeView of domain "
         "\"aten\": tensor arguments are its inputs, the other arguments attributes under their schema names)";
}

bool truthy(const std::string& v) { return v == "1" || v == "true" || v == "yes" || v == "on"; }

class Lowering : public AtenContext, public OnnxParseContext {
 public:
  Lowering(const Program& p, const FrontendOptions& options, const Registries& registries)
      : p_(p), options_(options), registries_(registries), alias_(p.aliases) {}

  Workload run() {
    // Resolve every call first, so that unsupported operators are reported before any work.
    struct Resolved {
      const AtenCall* call;
      const OnnxParser* plugin;
      const AtenConverter* builtin;
    };
    std::vector<Resolved> plan;
    std::map<std::string, std::size_t> unsupported;
    std::vector<const AtenCall*> first_unsupported;
    for (const auto& c : p_.calls) {
      if (is_skipped_target(c.target)) continue;
      Resolved r{&c, nullptr, nullptr};
      if (c.op.find("::") != std::string::npos) {
        r.plugin = registries_.onnx_parser(c.op + "." + c.overload);
        if (!r.plugin) r.plugin = registries_.onnx_parser(c.op);
      }
      if (!r.plugin) r.builtin = AtenConverterTable::builtin().find(c.op, c.overload);
      if (!r.plugin && !r.builtin) {
        if (unsupported[c.op]++ == 0) first_unsupported.push_back(&c);
        continue;
      }
      plan.push_back(r);
    }
    if (!unsupported.empty()) report(unsupported, first_unsupported);
    for (const auto& c : p_.calls)
      for (const auto& [key, a] : c.args)
        for (const auto& t : a.tensors) read_.insert(t);
    for (const auto& o : p_.outputs) read_.insert(o);

    std::vector<Node> body;
    for (const auto& r : plan) {
      call_ = r.call;
      std::vector<Node> produced;
      try {
        produced = r.plugin ? (*r.plugin)(view(*r.call), *this) : (*r.builtin)(*r.call, *this);
        for (const auto& n : produced) validate(n);
      } catch (const Error& e) {
        throw e.within(Location{.file = p_.file, .node = r.call->name});
      } catch (const std::exception& e) {
        fail(std::string("the converter for ") + r.call->op + " failed: " + e.what());
      }
      for (auto& n : produced) body.push_back(std::move(n));
    }
    call_ = nullptr;
    return finish(std::move(body));
  }

  // ---- AtenContext / OnnxParseContext ----
  TensorPtr tensor(const std::string& value) override {
    const auto name = resolve(value);
    if (auto it = tensors_.find(name); it != tensors_.end()) return it->second;
    auto v = p_.values.find(name);
    if (v == p_.values.end()) fail("value '" + name + "' has no entry in graph.tensor_values", name);
    auto dt = detail::dtype_of(v->second.scalar_type);
    if (!dt)
      fail("tensor '" + name + "' has element type " + detail::scalar_type_name(v->second.scalar_type) +
               ", which the workload IR does not model (f32, f16, bf16, i8, u8, i16, i32)",
           name);
    auto t = make_tensor(name, *dt, v->second.shape);
    tensors_[name] = t;
    return t;
  }
  TensorPtr output(std::size_t i) override {
    if (!call_ || i >= call_->outputs.size() || call_->outputs[i].empty())
      fail("the call has no tensor output " + std::to_string(i));
    return tensor(call_->outputs[i]);
  }
  void alias(const std::string& value, const std::string& of) override {
    if (value != of) alias_[value] = resolve(of);
  }
  void set_permutation(const std::string& node, std::vector<std::int64_t> perm) override { perms_[node] = std::move(perm); }
  void set_transpose_perm(const std::string& node, std::vector<std::int64_t> perm) override { perms_[node] = std::move(perm); }
  bool used(const std::string& value) const override { return read_.count(value) != 0; }
  bool modelled(const std::string& value) const override {
    auto v = p_.values.find(resolve(value));
    return v != p_.values.end() && detail::dtype_of(v->second.scalar_type).has_value();
  }
  [[noreturn]] void fail(const std::string& message, const std::string& tensor_name = "") const override {
    throw Error(message, Location{.file = p_.file, .node = call_ ? call_->name : "", .operand = tensor_name});
  }
  TensorPtr new_tensor(const std::string& name, DType dtype, std::vector<std::int64_t> shape) override {
    auto n = name;
    while (tensors_.count(n) != 0 || p_.values.count(n) != 0) n += "_";
    auto t = make_tensor(n, dtype, std::move(shape));
    tensors_[n] = t;
    return t;
  }

 private:
  std::string resolve(const std::string& value) const {
    auto n = value;
    for (auto it = alias_.find(n); it != alias_.end(); it = alias_.find(n)) n = it->second;
    return n;
  }

  [[noreturn]] void report(const std::map<std::string, std::size_t>& unsupported, const std::vector<const AtenCall*>& first) {
    std::size_t calls = 0;
    for (const auto& [op, n] : unsupported) calls += n;
    if (truthy(options_.get("report_unsupported"))) {
      std::string list;
      for (const auto& [op, n] : unsupported) list += "\n  " + op + "  x" + std::to_string(n);
      throw Error("the program uses " + std::to_string(unsupported.size()) + " unsupported operator(s) in " +
                      std::to_string(calls) + " call(s):" + list + "\n" + how_to_register("<op>") + ".",
                  Location{.file = p_.file});
    }
    const auto* c = first.front();
    std::string more;
    if (calls > 1)
      more = " (" + std::to_string(calls - 1) + " more unsupported call(s); `stream parse --report-unsupported` lists them all)";
    throw Error("unsupported ATen operator '" + c->op + "' (target " + c->target + ") at node '" + c->name +
                    "': no converter is registered for it. " + how_to_register(c->op) + more,
                Location{.file = p_.file, .node = c->name});
  }

  OnnxNodeView view(const AtenCall& c) {
    OnnxNodeView v;
    v.op_type = c.op;
    v.domain = "aten";
    v.name = c.name;
    v.file = p_.file;
    auto value_view = [&](const std::string& name) {
      OnnxValue x;
      x.name = name;
      if (name.empty()) return x;
      const auto n = resolve(name);
      if (auto it = p_.values.find(n); it != p_.values.end()) {
        x.dtype = detail::dtype_of(it->second.scalar_type);
        x.shape = it->second.shape;
      }
      for (const auto& in : p_.inputs)
        if (in.name == n && in.role != detail::InputRole::User) x.is_constant = true;
      return x;
    };
    using K = AtenArg::Kind;
    for (const auto& [key, a] : c.args) {
      OnnxAttribute at;
      switch (a.kind) {
        case K::Tensor:
        case K::Tensors:
          for (const auto& t : a.tensors) v.inputs.push_back(value_view(t));
          continue;
        case K::Int: case K::Bool: case K::SymInt:
          at.kind = OnnxAttribute::Kind::Int;
          at.i = a.ints.empty() ? 0 : a.ints.front();
          break;
        case K::Ints: case K::Bools: case K::SymInts:
          at.kind = OnnxAttribute::Kind::Ints;
          at.ints = a.ints;
          break;
        case K::Float:
          at.kind = OnnxAttribute::Kind::Float;
          at.f = a.floats.front();
          break;
        case K::Floats:
          at.kind = OnnxAttribute::Kind::Floats;
          at.floats = a.floats;
          break;
        case K::String:
          at.kind = OnnxAttribute::Kind::String;
          at.s = a.strings.front();
          break;
        case K::Strings:
          at.kind = OnnxAttribute::Kind::Strings;
          at.strings = a.strings;
          break;
        default:
          continue;
      }
      v.attributes[key] = at;
    }
    for (const auto& o : c.outputs) v.outputs.push_back(value_view(o));
    return v;
  }

  // InEdges for the parameters, buffers, constants and user inputs the IR models, in signature
  // order; one OutEdge per user output value.
  Workload finish(std::vector<Node> body) {
    GraphEdgeOptions edges;
    for (const auto& in : p_.inputs) {
      if (in.role == detail::InputRole::Other || in.name.empty()) continue;
      auto v = p_.values.find(in.name);
      if (v == p_.values.end() || !detail::dtype_of(v->second.scalar_type)) continue;  // int64 ids, bool masks: metadata
      edges.inputs.push_back({.value = in.name});
    }
    for (const auto& o : p_.outputs) edges.outputs.push_back({.edge_name = o, .value = resolve(o)});
    edges.one_out_edge_per_value = true;
    edges.tensor = [this](const std::string& value) { return tensor(value); };
    edges.admit_unbound_read = [this](const Node& reader, const TensorPtr& t) {
      throw Error("tensor '" + t->name + "' read by node '" + reader.name + "' is neither a graph input nor produced by a call",
                  Location{.file = p_.file, .node = reader.name, .operand = t->name});
    };
    auto nodes = add_graph_edges(std::move(body), edges);
    LayoutFoldingOptions fold;
    fold.perms = perms_;
    try {
      if (options_.get(kKeepLayoutOps) != "1") nodes = fold_layout_ops(std::move(nodes), fold);
      nodes = fold_expands(std::move(nodes));
      return Workload(std::move(nodes));
    } catch (const Error& e) {
      throw e.within(Location{.file = p_.file});
    }
  }

  const Program& p_;
  const FrontendOptions& options_;
  const Registries& registries_;
  const AtenCall* call_ = nullptr;
  std::map<std::string, TensorPtr> tensors_;
  std::map<std::string, std::string> alias_;
  std::map<std::string, std::vector<std::int64_t>> perms_;
  std::set<std::string> read_;
};

}  // namespace

bool TorchExportFrontend::can_load(const std::filesystem::path& source) const {
  auto ext = source.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return ext == ".pt2";
}

Workload TorchExportFrontend::load(const std::filesystem::path& source, const FrontendOptions& options,
                                   const Registries& registries) const {
  const auto archive = read_archive(source, options.get("model"));
  return load_json(archive.json, source.string(), options, registries);
}

Workload TorchExportFrontend::load_json(const std::string& json, const std::string& file, const FrontendOptions& options,
                                        const Registries& registries) const {
  const auto program = detail::parse_program(json, file, options);
  return Lowering(program, options, registries).run();
}

void register_torch_frontend(PluginRegistrar& registrar) { registrar.add_frontend(std::make_shared<TorchExportFrontend>()); }

}  // namespace stream::torch_frontend
