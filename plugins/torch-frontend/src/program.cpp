// Decoding a .pt2's ExportedProgram JSON (nlohmann_json), with the tolerance rules of the format document (§2.1): unions as one key or as "the one non-null
// key", as_none as true or [], bare Infinity/NaN tokens, missing optional fields, old signatures.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include <stream/error.hpp>
#include <stream/ir/checked.hpp>

#include "program.hpp"
#include "size_expr.hpp"

namespace stream::torch_frontend {

using json = nlohmann::json;

// ------------------------------------------------------------------------------------------------
// AtenCall accessors
// ------------------------------------------------------------------------------------------------

const AtenArg* AtenCall::arg(const std::string& key) const {
  for (const auto& [k, a] : args)
    if (k == key) return &a;
  return nullptr;
}

std::int64_t AtenCall::int_arg(const std::string& key, std::int64_t fallback) const {
  const auto* a = arg(key);
  if (!a || a->ints.empty() || a->kind == AtenArg::Kind::None) return fallback;
  return a->ints.front();
}

std::vector<std::int64_t> AtenCall::ints_arg(const std::string& key, std::vector<std::int64_t> fallback) const {
  const auto* a = arg(key);
  if (!a || a->kind == AtenArg::Kind::None) return fallback;
  return a->ints;
}

double AtenCall::float_arg(const std::string& key, double fallback) const {
  const auto* a = arg(key);
  if (!a) return fallback;
  if (!a->floats.empty()) return a->floats.front();
  if (!a->ints.empty()) return static_cast<double>(a->ints.front());
  return fallback;
}

std::string AtenCall::string_arg(const std::string& key, const std::string& fallback) const {
  const auto* a = arg(key);
  if (!a || a->strings.empty()) return fallback;
  return a->strings.front();
}

std::string AtenCall::tensor_arg(const std::string& key) const {
  const auto* a = arg(key);
  if (!a || a->kind != AtenArg::Kind::Tensor || a->tensors.empty()) return "";
  return a->tensors.front();
}

namespace detail {

std::optional<DType> dtype_of(int t) {
  switch (t) {
    case 1: return DType::u8;
    case 2: return DType::i8;
    case 3: return DType::i16;
    case 4: return DType::i32;
    case 6: return DType::f16;
    case 7: return DType::f32;
    case 8: return DType::f64;
    case 13: return DType::bf16;
    case 28: return DType::u16;
    case 29: return DType::f8e4m3fn;
    case 30: return DType::f8e5m2;
    case 31: return DType::f8e4m3fnuz;
    case 32: return DType::f8e5m2fnuz;
    default: return std::nullopt;
  }
}

std::string scalar_type_name(int t) {
  static const std::map<int, std::string> names{
      {0, "UNKNOWN"}, {1, "BYTE (uint8)"}, {2, "CHAR (int8)"}, {3, "SHORT (int16)"}, {4, "INT (int32)"},
      {5, "LONG (int64)"}, {6, "HALF (float16)"}, {7, "FLOAT (float32)"}, {8, "DOUBLE (float64)"},
      {9, "COMPLEXHALF"}, {10, "COMPLEXFLOAT"}, {11, "COMPLEXDOUBLE"}, {12, "BOOL"}, {13, "BFLOAT16"},
      {28, "UINT16"}, {29, "FLOAT8E4M3FN"}, {30, "FLOAT8E5M2"}, {31, "FLOAT8E4M3FNUZ"}, {32, "FLOAT8E5M2FNUZ"}};
  auto it = names.find(t);
  return it == names.end() ? "code " + std::to_string(t) : it->second;
}

namespace {

// Older serializers wrote bare Infinity / -Infinity / NaN, which is not JSON: quote them.
std::string quote_non_finite(const std::string& in) {
  std::string out;
  out.reserve(in.size());
  bool in_string = false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < in.size()) out += in[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    for (const char* tok : {"-Infinity", "Infinity", "NaN"}) {
      const std::string t(tok);
      if (in.compare(i, t.size(), t) == 0) {
        out += "\"" + t + "\"";
        i += t.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

// The member of a union: the single key, or the one key whose value is not null (2.1/2.2 files
// write every member). An all-null union is None.
std::pair<std::string, const json*> union_member(const json& j) {
  if (!j.is_object()) return {"", nullptr};
  std::pair<std::string, const json*> found{"", nullptr};
  int count = 0;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.value().is_null()) continue;
    found = {it.key(), &it.value()};
    ++count;
  }
  if (count > 1) {
    // Tolerate as_none: [] (old "unset") beside a real member.
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!it.value().is_null() && it.key() != "as_none") return {it.key(), &it.value()};
  }
  if (count == 0) return {"as_none", nullptr};
  return found;
}

double as_double(const json& v, const std::string& file) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "Infinity" || s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity" || s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  throw Error("expected a float, got " + v.dump(), Location{.file = file});
}

class Decoder {
 public:
  Decoder(const std::string& file, const FrontendOptions& options) : file_(file), options_(options) {}

  Program run(const json& doc) {
    Program p;
    p.file = file_;
    if (!doc.is_object()) fail("the ExportedProgram JSON is not an object");
    check_schema(doc);
    const auto& gm = member(doc, "graph_module", "the document");
    const auto& graph = member(gm, "graph", "graph_module");
    if (auto it = doc.find("range_constraints"); it != doc.end() && it->is_object()) ranges_ = *it;
    if (auto it = graph.find("sym_int_values"); it != graph.end() && it->is_object()) sym_ints_ = *it;
    const auto& tv = member(graph, "tensor_values", "graph");
    collect_hints(tv);
    for (auto it = tv.begin(); it != tv.end(); ++it) p.values[it.key()] = tensor_meta(it.key(), it.value());
    decode_inputs(gm, graph, p);
    decode_outputs(gm, graph, p);
    const auto& nodes = member(graph, "nodes", "graph");
    if (!nodes.is_array()) fail("graph.nodes is not a list");
    std::size_t index = 0;
    for (const auto& n : nodes) add_call(p, n, index++, {}, "");
    return p;
  }

  // wrap_with_set_grad_enabled / wrap_with_autocast only change autograd or precision state
  // around a subgraph: their calls are inlined (values renamed under "<node>/", placeholders
  // bound to the call's tensor arguments, the call's outputs aliased to the subgraph's outputs).
  static bool inlinable(const std::string& target) {
    return target == "torch.ops.higher_order.wrap_with_set_grad_enabled" || target == "torch.ops.higher_order.wrap_with_autocast";
  }

  void add_call(Program& p, const json& n, std::size_t index, const std::map<std::string, std::string>& rename,
                const std::string& prefix) {
    auto c = call(n, index);
    auto renamed = [&](const std::string& v) {
      if (v.empty()) return v;
      auto it = rename.find(v);
      return it != rename.end() ? it->second : prefix + v;
    };
    if (!prefix.empty() || !rename.empty()) {
      c.name = prefix + c.name;
      for (auto& [k, a] : c.args)
        for (auto& t : a.tensors) t = renamed(t);
      for (auto& o : c.outputs) o = renamed(o);
    }
    const json* graph = nullptr;
    if (auto ins_it = n.find("inputs"); inlinable(c.target) && ins_it != n.end() && ins_it->is_array())
      for (const auto& a : *ins_it)
        if (a.contains("arg") && a["arg"].is_object() && a["arg"].contains("as_graph") && a["arg"]["as_graph"].is_object())
          graph = &a["arg"]["as_graph"]["graph"];
    if (!graph) {
      p.calls.push_back(std::move(c));
      return;
    }
    const auto inner = c.name + "/";
    std::vector<std::string> outer_tensors;
    for (const auto& [k, a] : c.args)
      if (a.kind == AtenArg::Kind::Tensor) outer_tensors.push_back(a.tensors.front());
    std::map<std::string, std::string> bind;
    const auto& ins = member(*graph, "inputs", "the subgraph of '" + c.name + "'");
    if (ins.size() != outer_tensors.size())
      fail("the subgraph of '" + c.name + "' has " + std::to_string(ins.size()) + " inputs for " +
           std::to_string(outer_tensors.size()) + " tensor arguments");
    for (std::size_t i = 0; i < ins.size(); ++i) {
      auto [tag, v] = union_member(ins[i]);
      if (v) bind[name_of(*v)] = outer_tensors[i];
    }
    if (auto tv = graph->find("tensor_values"); tv != graph->end() && tv->is_object()) {
      collect_hints(*tv);
      for (auto it = tv->begin(); it != tv->end(); ++it)
        if (bind.count(it.key()) == 0) p.values[inner + it.key()] = tensor_meta(inner + it.key(), it.value());
    }
    std::size_t sub = 0;
    for (const auto& sn : member(*graph, "nodes", "the subgraph of '" + c.name + "'")) add_call(p, sn, sub++, bind, inner);
    const auto& outs = member(*graph, "outputs", "the subgraph of '" + c.name + "'");
    for (std::size_t i = 0; i < outs.size() && i < c.outputs.size(); ++i) {
      auto [tag, v] = union_member(outs[i]);
      if (tag != "as_tensor" || !v || c.outputs[i].empty()) continue;
      const auto name = name_of(*v);
      p.aliases[c.outputs[i]] = bind.count(name) ? bind.at(name) : inner + name;
    }
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw Error(message, Location{.file = file_}); }

  const json& member(const json& j, const std::string& key, const std::string& where) const {
    if (!j.is_object()) fail(where + " is not an object");
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) fail(where + " has no \"" + key + "\"");
    return *it;
  }

  void check_schema(const json& doc) const {
    auto it = doc.find("schema_version");
    if (it == doc.end() || it->is_null()) return;  // very old files: assume compatible
    std::int64_t major = 0;
    if (it->is_number_integer()) major = it->get<std::int64_t>() <= 2 ? 0 : it->get<std::int64_t>();
    else if (it->is_object() && it->contains("major") && (*it)["major"].is_number_integer()) major = (*it)["major"].get<std::int64_t>();
    else fail("schema_version is neither an integer nor {major, minor}: " + it->dump());
    if (major > 8)
      fail("the program uses serialization schema major version " + std::to_string(major) +
           "; this reader knows versions up to 8 (torch <= 2.10). Re-export with a supported torch release");
  }

  // ---- symbolic sizes ----
  void collect_hints(const json& tv) {
    auto visit_size = [&](const json& s) {
      auto [tag, v] = union_member(s);
      if (tag != "as_expr" || !v || !v->is_object()) return;
      const auto expr = v->value("expr_str", std::string());
      const auto sym = lone_symbol(expr);
      if (sym.empty()) return;
      auto h = v->find("hint");
      if (h == v->end() || h->is_null()) return;
      if (h->is_number_integer()) hints_[sym] = h->get<std::int64_t>();
      else if (auto [ht, hv] = union_member(*h); ht == "as_int" && hv && hv->is_number_integer()) hints_[sym] = hv->get<std::int64_t>();
    };
    for (auto it = tv.begin(); it != tv.end(); ++it) {
      const json* meta = &it.value();
      if (meta->contains("meta") && !meta->contains("sizes")) meta = &(*meta)["meta"];
      if (auto s = meta->find("sizes"); s != meta->end() && s->is_array())
        for (const auto& x : *s) visit_size(x);
    }
  }

  std::int64_t symbol_value(const std::string& name) {
    if (auto it = bound_.find(name); it != bound_.end()) return it->second;
    auto opt = options_.values.find(name);
    if (opt != options_.values.end()) {
      std::int64_t v = 0;
      try {
        std::size_t used = 0;
        v = std::stoll(opt->second, &used);
        if (used != opt->second.size()) throw std::invalid_argument("trailing");
      } catch (const std::exception&) {
        fail("the size given for symbol '" + name + "' (" + opt->second + ") is not an integer");
      }
      if (v < 0) fail("the size given for symbol '" + name + "' is negative");
      if (auto r = ranges_.find(name); r != ranges_.end() && r->is_object()) {
        auto lo = r->find("min_val"), hi = r->find("max_val");
        if (lo != r->end() && lo->is_number_integer() && v < lo->get<std::int64_t>())
          fail("symbol '" + name + "' = " + std::to_string(v) + " is below its range constraint min " + lo->dump());
        if (hi != r->end() && hi->is_number_integer() && v > hi->get<std::int64_t>())
          fail("symbol '" + name + "' = " + std::to_string(v) + " is above its range constraint max " + hi->dump());
      }
      return bound_[name] = v;
    }
    if (auto it = hints_.find(name); it != hints_.end()) return it->second;
    throw UnknownSymbol{name};
  }

  std::int64_t sym_int(const json& s, const std::string& what) {
    auto [tag, v] = union_member(s);
    if (s.is_number_integer()) return s.get<std::int64_t>();
    if (tag == "as_int" && v && v->is_number_integer()) return v->get<std::int64_t>();
    if (tag == "as_expr" && v && v->is_object()) {
      const auto expr = v->value("expr_str", std::string());
      std::optional<std::int64_t> hint;
      if (auto h = v->find("hint"); h != v->end() && !h->is_null()) {
        if (h->is_number_integer()) hint = h->get<std::int64_t>();
        else if (auto [ht, hv] = union_member(*h); ht == "as_int" && hv && hv->is_number_integer()) hint = hv->get<std::int64_t>();
      }
      const std::function<std::int64_t(const std::string&)> lookup = [this](const std::string& n) { return symbol_value(n); };
      try {
        return evaluate_size(expr, lookup);
      } catch (const UnknownSymbol& u) {
        if (hint) return *hint;
        fail(what + " has the symbolic size '" + expr + "' and symbol '" + u.name +
             "' has no hint; give its value with --dim " + u.name + "=<size>");
      } catch (const BadExpr&) {
        if (hint) return *hint;
        fail(what + " has the symbolic size '" + expr + "', which this reader cannot evaluate, and no hint");
      }
    }
    fail(what + " is not a size: " + s.dump());
  }

  ValueMeta tensor_meta(const std::string& name, const json& j) {
    const json* meta = &j;
    if (j.contains("meta") && !j.contains("sizes")) meta = &j["meta"];
    ValueMeta m;
    m.name = name;
    auto dt = meta->find("dtype");
    if (dt == meta->end() || !dt->is_number_integer()) fail("tensor_values['" + name + "'] has no integer dtype");
    m.scalar_type = dt->get<int>();
    auto sizes = meta->find("sizes");
    if (sizes == meta->end() || !sizes->is_array()) fail("tensor_values['" + name + "'] has no sizes");
    for (std::size_t a = 0; a < sizes->size(); ++a)
      m.shape.push_back(sym_int((*sizes)[a], "tensor '" + name + "' axis " + std::to_string(a)));
    return m;
  }

  // ---- arguments ----
  static std::string name_of(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_object() && v.contains("name") && v["name"].is_string()) return v["name"].get<std::string>();
    return "";
  }

  std::int64_t sym_int_arg(const json& v, const std::string& where) {
    auto [tag, x] = union_member(v);
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (tag == "as_int" && x) return x->get<std::int64_t>();
    if (tag == "as_name" && x && x->is_string()) {
      const auto n = x->get<std::string>();
      auto it = sym_ints_.find(n);
      if (it != sym_ints_.end()) return sym_int(*it, "symbolic value '" + n + "'");
      fail(where + " refers to the symbolic value '" + n + "', which sym_int_values does not define");
    }
    fail(where + " is not a SymInt argument: " + v.dump());
  }

  AtenArg argument(const json& j, const std::string& where) {
    AtenArg a;
    auto [tag, v] = union_member(j);
    a.tag = tag;
    using K = AtenArg::Kind;
    if (tag == "as_none" || !v) {
      a.kind = K::None;
    } else if (tag == "as_tensor" || tag == "as_optional_tensor") {
      if (tag == "as_optional_tensor") {
        auto [t2, v2] = union_member(*v);
        if (t2 != "as_tensor" || !v2) return a;
        v = v2;
      }
      a.kind = K::Tensor;
      a.tensors = {name_of(*v)};
    } else if (tag == "as_tensors" || tag == "as_optional_tensors") {
      a.kind = K::Tensors;
      for (const auto& e : *v) {
        if (tag == "as_tensors") {
          a.tensors.push_back(name_of(e));
        } else {
          auto [t2, v2] = union_member(e);
          a.tensors.push_back(t2 == "as_tensor" && v2 ? name_of(*v2) : "");
        }
      }
    } else if (tag == "as_int" || tag == "as_scalar_type" || tag == "as_memory_format" || tag == "as_layout") {
      a.kind = K::Int;
      if (v->is_number_integer()) a.ints = {v->get<std::int64_t>()};
    } else if (tag == "as_ints") {
      a.kind = K::Ints;
      for (const auto& e : *v) a.ints.push_back(e.get<std::int64_t>());
    } else if (tag == "as_float") {
      a.kind = K::Float;
      a.floats = {as_double(*v, file_)};
    } else if (tag == "as_floats") {
      a.kind = K::Floats;
      for (const auto& e : *v) a.floats.push_back(as_double(e, file_));
    } else if (tag == "as_bool") {
      a.kind = K::Bool;
      a.ints = {v->get<bool>() ? 1 : 0};
    } else if (tag == "as_bools") {
      a.kind = K::Bools;
      for (const auto& e : *v) a.ints.push_back(e.get<bool>() ? 1 : 0);
    } else if (tag == "as_string") {
      a.kind = K::String;
      a.strings = {v->get<std::string>()};
    } else if (tag == "as_strings") {
      a.kind = K::Strings;
      for (const auto& e : *v) a.strings.push_back(e.get<std::string>());
    } else if (tag == "as_sym_int") {
      a.kind = K::SymInt;
      a.ints = {sym_int_arg(*v, where)};
    } else if (tag == "as_sym_ints") {
      a.kind = K::SymInts;
      for (const auto& e : *v) a.ints.push_back(sym_int_arg(e, where));
    } else {
      a.kind = K::Other;  // devices, graphs, custom objects, sym bools/floats: not needed here
    }
    return a;
  }

  AtenCall call(const json& n, std::size_t index) {
    AtenCall c;
    const std::string where = "node " + std::to_string(index);
    c.target = member(n, "target", where).get<std::string>();
    const std::string prefix = "torch.ops.";
    if (c.target.rfind(prefix, 0) == 0) {
      const auto rest = c.target.substr(prefix.size());
      const auto d1 = rest.find('.');
      const auto d2 = d1 == std::string::npos ? std::string::npos : rest.find('.', d1 + 1);
      if (d1 != std::string::npos) {
        c.op = rest.substr(0, d1) + "::" + rest.substr(d1 + 1, d2 == std::string::npos ? std::string::npos : d2 - d1 - 1);
        c.overload = d2 == std::string::npos ? "default" : rest.substr(d2 + 1);
      } else {
        c.op = rest;
      }
    } else {
      c.op = c.target;
    }
    if (auto outs = n.find("outputs"); outs != n.end() && outs->is_array()) {
      for (const auto& o : *outs) {
        auto [tag, v] = union_member(o);
        if (tag == "as_tensor" && v) c.outputs.push_back(name_of(*v));
        else if (tag == "as_tensors" && v)
          for (const auto& e : *v) c.outputs.push_back(name_of(e));
        else if (tag == "as_optional_tensor" && v) {
          auto [t2, v2] = union_member(*v);
          c.outputs.push_back(t2 == "as_tensor" && v2 ? name_of(*v2) : "");
        } else if (tag == "as_sym_int" && v && v->is_object() && v->contains("as_name")) {
          c.outputs.push_back("");
          if (c.name.empty()) c.name = (*v)["as_name"].get<std::string>();
        } else c.outputs.push_back("");
      }
    }
    if (auto nm = n.find("name"); nm != n.end() && nm->is_string()) c.name = nm->get<std::string>();
    if (c.name.empty())
      for (const auto& o : c.outputs)
        if (!o.empty()) {
          c.name = o;
          break;
        }
    if (c.name.empty()) c.name = c.op + "_" + std::to_string(index);
    if (auto ins = n.find("inputs"); ins != n.end() && ins->is_array()) {
      for (const auto& a : *ins) {
        if (!a.is_object()) fail(where + " (" + c.target + ") has an input that is not a NamedArgument");
        const auto key = a.value("name", std::string());
        auto arg = a.find("arg");
        c.args.emplace_back(key, arg == a.end() ? AtenArg{} : argument(*arg, "argument '" + key + "' of node '" + c.name + "'"));
      }
    }
    return c;
  }

  // ---- signature ----
  void decode_inputs(const json& gm, const json& graph, Program& p) {
    std::vector<std::string> names;
    for (const auto& a : member(graph, "inputs", "graph")) {
      auto [tag, v] = union_member(a);
      names.push_back(v ? (tag == "as_sym_int" && v->is_object() && v->contains("as_name") ? (*v)["as_name"].get<std::string>()
                                                                                        : name_of(*v))
                        : "");
    }
    const json* sig = gm.contains("signature") ? &gm["signature"] : nullptr;
    if (sig && sig->contains("input_specs") && (*sig)["input_specs"].is_array()) {
      const auto& specs = (*sig)["input_specs"];
      if (specs.size() != names.size())
        fail("signature.input_specs has " + std::to_string(specs.size()) + " entries for " + std::to_string(names.size()) +
             " graph inputs");
      for (std::size_t i = 0; i < specs.size(); ++i) {
        auto [tag, v] = union_member(specs[i]);
        GraphInput in{names[i], InputRole::Other, ""};
        if (tag == "user_input") in.role = InputRole::User;
        else if (tag == "parameter") in.role = InputRole::Parameter, in.fqn = v ? v->value("parameter_name", "") : "";
        else if (tag == "buffer") in.role = InputRole::Buffer, in.fqn = v ? v->value("buffer_name", "") : "";
        else if (tag == "tensor_constant") in.role = InputRole::Constant, in.fqn = v ? v->value("tensor_constant_name", "") : "";
        p.inputs.push_back(in);
      }
    } else if (sig && sig->contains("inputs_to_parameters")) {  // schema 1 (torch 2.1)
      for (const auto& n : names) {
        GraphInput in{n, InputRole::User, ""};
        if (auto it = (*sig)["inputs_to_parameters"].find(n); it != (*sig)["inputs_to_parameters"].end())
          in.role = InputRole::Parameter, in.fqn = it->get<std::string>();
        else if (sig->contains("inputs_to_buffers") && (*sig)["inputs_to_buffers"].contains(n))
          in.role = InputRole::Buffer, in.fqn = (*sig)["inputs_to_buffers"][n].get<std::string>();
        p.inputs.push_back(in);
      }
    } else {
      for (const auto& n : names) p.inputs.push_back({n, InputRole::User, ""});
    }
  }

  void decode_outputs(const json& gm, const json& graph, Program& p) {
    std::vector<std::string> names;
    for (const auto& a : member(graph, "outputs", "graph")) {
      auto [tag, v] = union_member(a);
      names.push_back(tag == "as_tensor" && v ? name_of(*v) : "");
    }
    const json* sig = gm.contains("signature") ? &gm["signature"] : nullptr;
    if (sig && sig->contains("output_specs") && (*sig)["output_specs"].is_array() && (*sig)["output_specs"].size() == names.size()) {
      const auto& specs = (*sig)["output_specs"];
      for (std::size_t i = 0; i < specs.size(); ++i) {
        auto [tag, v] = union_member(specs[i]);
        if (tag == "user_output" && !names[i].empty()) p.outputs.push_back(names[i]);
      }
    } else {
      for (const auto& n : names)
        if (!n.empty()) p.outputs.push_back(n);
    }
  }

  std::string file_;
  const FrontendOptions& options_;
  json ranges_ = json::object();
  json sym_ints_ = json::object();
  std::map<std::string, std::int64_t> hints_, bound_;
};

}  // namespace

Program parse_program(const std::string& text, const std::string& file, const FrontendOptions& options) {
  json doc;
  try {
    doc = json::parse(quote_non_finite(text));
  } catch (const json::exception& e) {
    throw Error(std::string("the ExportedProgram JSON does not parse: ") + e.what(), Location{.file = file});
  }
  try {
    return Decoder(file, options).run(doc);
  } catch (const json::exception& e) {
    throw Error(std::string("the ExportedProgram JSON has an unexpected structure: ") + e.what(), Location{.file = file});
  }
}

}  // namespace detail
}  // namespace stream::torch_frontend
