#include "int_tensor_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <string>

#include "shape_values.hpp"

namespace stream::onnx_frontend {
namespace {

using Dims = std::vector<std::int64_t>;
using Result = std::optional<IntTensor>;

// Element count of a shape, when every extent is >= 0 and the count is within the cap.
std::optional<std::int64_t> element_count(const Dims& dims) {
  std::int64_t count = 1;
  for (auto d : dims) {
    if (d < 0 || __builtin_mul_overflow(count, d, &count)) return std::nullopt;
  }
  if (count > kMaxIntElements) return std::nullopt;
  return count;
}

bool well_formed(const IntTensor* t) {
  if (!t) return false;
  const auto count = element_count(t->dims);
  return count && static_cast<std::size_t>(*count) == t->values.size();
}

// A result whose values fit its element type and whose size matches its shape (a float result is
// rounded to float precision; a non-finite one is not evaluated).
Result finish(IntTensor t) {
  if (!well_formed(&t)) return std::nullopt;
  for (auto& v : t.values) {
    if (is_real(t.elem)) {
      const double x = t.elem == kF32 ? static_cast<double>(static_cast<float>(real_of(v))) : real_of(v);
      if (!std::isfinite(x)) return std::nullopt;
      v = real_bits(x);
    } else if (t.elem == kBool) v = v != 0;
    else if (t.elem == kI32 && (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max()))
      return std::nullopt;
  }
  return t;
}

Dims strides_of(const Dims& dims) {
  Dims s(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

// The multi-index of a row-major flat index.
Dims unravel(std::int64_t flat, const Dims& dims) {
  Dims idx(dims.size(), 0);
  for (std::size_t i = dims.size(); i-- > 0;) {
    idx[i] = dims[i] == 0 ? 0 : flat % dims[i];
    flat = dims[i] == 0 ? 0 : flat / dims[i];
  }
  return idx;
}

std::optional<std::int64_t> normalize(std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  const auto a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r) return std::nullopt;
  return a;
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

std::int64_t attr_int(const onnx::NodeProto& n, const std::string& name, std::int64_t fallback) {
  const auto* a = attribute(n, name);
  return a && a->type() == onnx::AttributeProto_AttributeType_INT ? a->i() : fallback;
}

std::optional<Dims> attr_ints(const onnx::NodeProto& n, const std::string& name) {
  const auto* a = attribute(n, name);
  if (!a) return std::nullopt;
  if (a->type() == onnx::AttributeProto_AttributeType_INTS) return Dims(a->ints().begin(), a->ints().end());
  if (a->type() == onnx::AttributeProto_AttributeType_INT) return Dims{a->i()};
  return std::nullopt;
}

// An axes/shape list given as input `i` from `since_opset` on, else as attribute `name`. Absent
// both ways: an empty list with `given` false.
struct IntList {
  bool ok = true;
  bool given = false;
  Dims values;
};
IntList list_operand(const onnx::NodeProto& n, std::int64_t opset, std::int64_t since_opset,
                     const std::vector<const IntTensor*>& in, std::size_t i, const std::string& name) {
  IntList out;
  if (opset >= since_opset) {
    if (i < in.size() && in[i]) {
      out.given = true;
      out.ok = in[i]->dims.size() <= 1;
      out.values = in[i]->values;
    }
  } else if (auto a = attr_ints(n, name)) {
    out.given = true;
    out.values = *a;
  }
  return out;
}

// The values of an `out`-shaped tensor whose element at index idx is x's element at the
// coordinates source(j, idx) along each of x's axes j (broadcast, tile and slice are such reads).
template <class Source>
Dims gather_values(const IntTensor& x, const Dims& out, std::int64_t count, Source source) {
  const auto xs = strides_of(x.dims);
  Dims values;
  values.reserve(static_cast<std::size_t>(count));
  for (std::int64_t f = 0; f < count; ++f) {
    const auto idx = unravel(f, out);
    std::int64_t src = 0;
    for (std::size_t j = 0; j < x.dims.size(); ++j) src += source(j, idx) * xs[j];
    values.push_back(x.values[static_cast<std::size_t>(src)]);
  }
  return values;
}

// x's values laid out in `out` dims by NumPy broadcasting (x's shape must broadcast to `out`).
std::optional<Dims> broadcast_values(const IntTensor& x, const Dims& out) {
  if (x.dims.size() > out.size()) return std::nullopt;
  const auto lead = out.size() - x.dims.size();
  const auto count = element_count(out);
  if (!count) return std::nullopt;
  for (std::size_t j = 0; j < x.dims.size(); ++j)
    if (x.dims[j] != 1 && x.dims[j] != out[lead + j]) return std::nullopt;
  return gather_values(x, out, *count, [&](std::size_t j, const Dims& idx) { return x.dims[j] == 1 ? std::int64_t{0} : idx[lead + j]; });
}

std::optional<Dims> broadcast_dims(const std::vector<Dims>& shapes) {
  std::size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  Dims out(rank, 1);
  for (const auto& s : shapes)
    for (std::size_t j = 0; j < s.size(); ++j) {
      auto& o = out[rank - s.size() + j];
      if (s[j] == o || s[j] == 1) continue;
      if (o != 1) return std::nullopt;
      o = s[j];
    }
  return out;
}

using ElementFn = std::function<std::optional<std::int64_t>(const Dims& args)>;

// An element-wise operator over broadcast operands.
Result elementwise(const std::vector<const IntTensor*>& xs, int elem, const ElementFn& f) {
  std::vector<Dims> shapes;
  for (const auto* x : xs) {
    if (!well_formed(x)) return std::nullopt;
    shapes.push_back(x->dims);
  }
  if (xs.empty()) return std::nullopt;
  const auto out = broadcast_dims(shapes);
  if (!out) return std::nullopt;
  std::vector<Dims> laid_out;
  for (const auto* x : xs) {
    auto v = broadcast_values(*x, *out);
    if (!v) return std::nullopt;
    laid_out.push_back(std::move(*v));
  }
  IntTensor r{elem, *out, {}};
  const auto count = laid_out.front().size();
  Dims args(xs.size());
  for (std::size_t e = 0; e < count; ++e) {
    for (std::size_t k = 0; k < xs.size(); ++k) args[k] = laid_out[k][e];
    const auto v = f(args);
    if (!v) return std::nullopt;
    r.values.push_back(*v);
  }
  return finish(std::move(r));
}

std::optional<std::int64_t> arithmetic(const std::string& op, std::int64_t a, std::int64_t b, bool fmod) {
  std::int64_t r = 0;
  if (op == "Add") return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional(r);
  if (op == "Sub") return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional(r);
  if (op == "Mul") return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional(r);
  if (b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1)) return std::nullopt;
  if (op == "Div") return a / b;  // integer Div truncates, as ONNX Runtime does
  // Mod: the sign of the divisor unless fmod=1 (the sign of the dividend, as C's %).
  r = a % b;
  if (!fmod && r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// The value of element `v` of a tensor of type `elem`, as a double.
double as_real(int elem, std::int64_t v) { return is_real(elem) ? real_of(v) : static_cast<double>(v); }

std::optional<double> real_arithmetic(const std::string& op, double a, double b, bool fmod) {
  if (op == "Add") return a + b;
  if (op == "Sub") return a - b;
  if (op == "Mul") return a * b;
  if (op == "Pow") return std::pow(a, b);
  if (op == "Max") return std::max(a, b);
  if (op == "Min") return std::min(a, b);
  if (op == "Sum") return a + b;
  if (b == 0) return std::nullopt;
  if (op == "Div") return a / b;
  if (op == "Mod" && fmod) return std::fmod(a, b);
  return std::nullopt;  // Mod on floats requires fmod=1
}

// The operators on float operands (the comparisons read floats and give bool).
Result real_binary(const onnx::NodeProto& n, const std::vector<const IntTensor*>& in) {
  const auto& op = n.op_type();
  std::vector<int> elems;
  for (const auto* x : in) elems.push_back(x->elem);
  auto args = [&](const Dims& a) {
    std::vector<double> r;
    for (std::size_t k = 0; k < a.size(); ++k) r.push_back(as_real(elems[k], a[k]));
    return r;
  };
  static const std::map<std::string, std::function<bool(double, double)>> compare{
      {"Equal", std::equal_to<>()}, {"Less", std::less<>()}, {"Greater", std::greater<>()},
      {"LessOrEqual", std::less_equal<>()}, {"GreaterOrEqual", std::greater_equal<>()}};
  if (auto c = compare.find(op); c != compare.end()) {
    if (in.size() != 2) return std::nullopt;
    return elementwise(in, kBool, [&](const Dims& a) {
      const auto r = args(a);
      return std::optional<std::int64_t>(c->second(r[0], r[1]));
    });
  }
  if (in.size() != 2 && op != "Max" && op != "Min" && op != "Sum") return std::nullopt;
  const bool fmod = attr_int(n, "fmod", 0) != 0;
  return elementwise(in, in[0]->elem, [&](const Dims& a) -> std::optional<std::int64_t> {
    const auto r = args(a);
    double acc = r[0];
    for (std::size_t k = 1; k < r.size(); ++k) {
      const auto v = real_arithmetic(op, acc, r[k], fmod);
      if (!v) return std::nullopt;
      acc = *v;
    }
    return real_bits(acc);
  });
}

Result binary_or_variadic(const onnx::NodeProto& n, const std::vector<const IntTensor*>& in) {
  const auto& op = n.op_type();
  if (!in.empty() && std::any_of(in.begin(), in.end(), [](const IntTensor* x) { return x && is_real(x->elem); }))
    return real_binary(n, in);
  if (op == "Pow") return std::nullopt;  // integer powers overflow; none of the shape arithmetic needs them
  static const std::map<std::string, std::function<bool(std::int64_t, std::int64_t)>> compare{
      {"Equal", std::equal_to<>()},      {"Less", std::less<>()},       {"Greater", std::greater<>()},
      {"LessOrEqual", std::less_equal<>()}, {"GreaterOrEqual", std::greater_equal<>()},
      {"And", [](auto a, auto b) { return a && b; }}, {"Or", [](auto a, auto b) { return a || b; }},
      {"Xor", [](auto a, auto b) { return (a != 0) != (b != 0); }}};
  if (in.empty() || !in[0]) return std::nullopt;
  if (auto c = compare.find(op); c != compare.end()) {
    if (in.size() != 2) return std::nullopt;
    return elementwise(in, kBool, [&](const Dims& a) { return std::optional<std::int64_t>(c->second(a[0], a[1])); });
  }
  if (op == "Max" || op == "Min" || op == "Sum") {
    return elementwise(in, in[0]->elem, [&](const Dims& a) -> std::optional<std::int64_t> {
      std::int64_t r = a[0];
      for (std::size_t k = 1; k < a.size(); ++k) {
        if (op == "Max") r = std::max(r, a[k]);
        else if (op == "Min") r = std::min(r, a[k]);
        else if (__builtin_add_overflow(r, a[k], &r)) return std::nullopt;
      }
      return r;
    });
  }
  if (in.size() != 2) return std::nullopt;
  const bool fmod = attr_int(n, "fmod", 0) != 0;
  return elementwise(in, in[0]->elem, [&](const Dims& a) { return arithmetic(op, a[0], a[1], fmod); });
}

std::optional<double> real_unary(const std::string& op, double v) {
  static const std::map<std::string, double (*)(double)> math{
      {"Sqrt", [](double a) { return std::sqrt(a); }}, {"Floor", [](double a) { return std::floor(a); }},
      {"Ceil", [](double a) { return std::ceil(a); }}, {"Round", [](double a) { return std::nearbyint(a); }},
      {"Exp", [](double a) { return std::exp(a); }},   {"Log", [](double a) { return std::log(a); }},
      {"Cos", [](double a) { return std::cos(a); }},   {"Sin", [](double a) { return std::sin(a); }},
      {"Neg", [](double a) { return -a; }},            {"Abs", [](double a) { return std::fabs(a); }},
      {"Reciprocal", [](double a) { return 1.0 / a; }}, {"Relu", [](double a) { return std::max(a, 0.0); }},
      {"Sign", [](double a) { return static_cast<double>((a > 0) - (a < 0)); }}};
  auto it = math.find(op);
  if (it == math.end()) return std::nullopt;
  return it->second(v);  // a non-finite result is refused by finish()
}

Result unary(const std::string& op, const IntTensor& x) {
  if (is_real(x.elem))
    return elementwise({&x}, x.elem, [&](const Dims& a) -> std::optional<std::int64_t> {
      const auto v = real_unary(op, real_of(a[0]));
      if (!v) return std::nullopt;
      return real_bits(*v);
    });
  if (op != "Neg" && op != "Abs" && op != "Not" && op != "Sign" && op != "Relu") return std::nullopt;
  return elementwise({&x}, x.elem, [&](const Dims& a) -> std::optional<std::int64_t> {
    const auto v = a[0];
    if (op == "Not") return v == 0;
    if (op == "Sign") return (v > 0) - (v < 0);
    if (op == "Relu") return std::max<std::int64_t>(v, 0);
    if (v == std::numeric_limits<std::int64_t>::min()) return std::nullopt;
    if (op == "Neg") return -v;
    return v < 0 ? -v : v;  // Abs
  });
}


Result shape_op(const onnx::NodeProto& n, std::int64_t opset, const Dims& shape) {
  const auto r = static_cast<std::int64_t>(shape.size());
  auto clamp = [r](std::int64_t a) { return std::clamp<std::int64_t>(a < 0 ? a + r : a, 0, r); };
  const auto start = opset >= 15 ? clamp(attr_int(n, "start", 0)) : 0;
  const auto end = opset >= 15 ? clamp(attr_int(n, "end", r)) : r;
  IntTensor t{kI64, {std::max<std::int64_t>(end - start, 0)}, {}};
  for (auto a = start; a < end; ++a) t.values.push_back(shape[static_cast<std::size_t>(a)]);
  return finish(std::move(t));
}

Result size_op(const Dims& shape) {
  std::int64_t count = 1;
  for (auto d : shape)
    if (d < 0 || __builtin_mul_overflow(count, d, &count)) return std::nullopt;
  return IntTensor{kI64, {}, {count}};
}

Result gather(const onnx::NodeProto& n, const IntTensor& data, const IntTensor& indices) {
  const auto axis = normalize(attr_int(n, "axis", 0), data.dims.size());
  if (!axis) return std::nullopt;
  const auto a = static_cast<std::size_t>(*axis);
  const auto extent = data.dims[a];
  Dims out(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(a));
  out.insert(out.end(), indices.dims.begin(), indices.dims.end());
  out.insert(out.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(a) + 1, data.dims.end());
  if (!element_count(out)) return std::nullopt;
  const auto inner = strides_of(data.dims)[a];
  const auto outer = element_count(Dims(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(a)));
  if (!outer) return std::nullopt;
  IntTensor t{data.elem, out, {}};
  for (std::int64_t o = 0; o < *outer; ++o)
    for (auto k : indices.values) {
      if (k < -extent || k >= extent) return std::nullopt;
      const auto row = o * extent + (k < 0 ? k + extent : k);
      for (std::int64_t i = 0; i < inner; ++i) t.values.push_back(data.values[static_cast<std::size_t>(row * inner + i)]);
    }
  return finish(std::move(t));
}

Result concat(const onnx::NodeProto& n, const std::vector<const IntTensor*>& in) {
  if (in.empty() || !in[0]) return std::nullopt;
  const auto rank = in[0]->dims.size();
  const auto axis = normalize(attr_int(n, "axis", 0), rank);
  if (!axis) return std::nullopt;
  const auto a = static_cast<std::size_t>(*axis);
  Dims out = in[0]->dims;
  out[a] = 0;
  for (const auto* x : in) {
    if (!x || x->dims.size() != rank) return std::nullopt;
    for (std::size_t j = 0; j < rank; ++j)
      if (j != a && x->dims[j] != out[j]) return std::nullopt;
    out[a] += x->dims[a];
  }
  const auto count = element_count(out);
  if (!count) return std::nullopt;
  Dims lead(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(a));
  const auto outer = *element_count(lead);
  IntTensor t{in[0]->elem, out, {}};
  for (std::int64_t o = 0; o < outer; ++o)
    for (const auto* x : in) {
      const auto chunk = outer == 0 ? 0 : static_cast<std::int64_t>(x->values.size()) / outer;
      const auto begin = x->values.begin() + o * chunk;
      t.values.insert(t.values.end(), begin, begin + chunk);
    }
  return finish(std::move(t));
}

Result reshaped(const IntTensor& x, Dims dims) {
  IntTensor t{x.elem, std::move(dims), x.values};
  return finish(std::move(t));
}

Result unsqueeze(const onnx::NodeProto& n, std::int64_t opset, const std::vector<const IntTensor*>& in) {
  const auto axes = list_operand(n, opset, 13, in, 1, "axes");
  if (!axes.ok || !axes.given) return std::nullopt;
  const auto rank = in[0]->dims.size() + axes.values.size();
  std::vector<bool> inserted(rank, false);
  for (auto a : axes.values) {
    const auto k = normalize(a, rank);
    if (!k || inserted[static_cast<std::size_t>(*k)]) return std::nullopt;
    inserted[static_cast<std::size_t>(*k)] = true;
  }
  Dims dims;
  auto src = in[0]->dims.begin();
  for (std::size_t j = 0; j < rank; ++j) dims.push_back(inserted[j] ? 1 : *src++);
  return reshaped(*in[0], dims);
}

Result squeeze(const onnx::NodeProto& n, std::int64_t opset, const std::vector<const IntTensor*>& in) {
  const auto axes = list_operand(n, opset, 13, in, 1, "axes");
  if (!axes.ok) return std::nullopt;
  const auto& x = *in[0];
  std::vector<bool> removed(x.dims.size(), !axes.given);
  if (axes.given) {
    for (auto a : axes.values) {
      const auto k = normalize(a, x.dims.size());
      if (!k || x.dims[static_cast<std::size_t>(*k)] != 1) return std::nullopt;
      removed[static_cast<std::size_t>(*k)] = true;
    }
  }
  Dims dims;
  for (std::size_t j = 0; j < x.dims.size(); ++j)
    if (!removed[j] || x.dims[j] != 1) dims.push_back(x.dims[j]);
  return reshaped(x, dims);
}

// Reshape's target: 0 copies the input extent (unless allowzero), one -1 takes the rest.
Result reshape(const onnx::NodeProto& n, std::int64_t opset, const std::vector<const IntTensor*>& in) {
  const auto target = list_operand(n, opset, 5, in, 1, "shape");
  if (!target.ok || !target.given) return std::nullopt;
  const auto& x = *in[0];
  const bool allow_zero = attr_int(n, "allowzero", 0) != 0;
  Dims dims = target.values;
  int infer = -1;
  std::int64_t known = 1;
  for (std::size_t j = 0; j < dims.size(); ++j) {
    if (dims[j] == 0 && !allow_zero) {
      if (j >= x.dims.size()) return std::nullopt;
      dims[j] = x.dims[j];
    }
    if (dims[j] == -1) {
      if (infer >= 0) return std::nullopt;
      infer = static_cast<int>(j);
    } else if (dims[j] < 0 || __builtin_mul_overflow(known, dims[j], &known)) {
      return std::nullopt;
    }
  }
  const auto total = static_cast<std::int64_t>(x.values.size());
  if (infer >= 0) {
    if (known == 0 || total % known != 0) return std::nullopt;
    dims[static_cast<std::size_t>(infer)] = total / known;
  }
  return reshaped(x, dims);
}

Result flatten(const onnx::NodeProto& n, const IntTensor& x) {
  const auto rank = static_cast<std::int64_t>(x.dims.size());
  auto axis = attr_int(n, "axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) return std::nullopt;
  std::int64_t rows = 1;
  for (std::int64_t j = 0; j < axis; ++j) rows *= x.dims[static_cast<std::size_t>(j)];
  const auto cols = rows == 0 ? 0 : static_cast<std::int64_t>(x.values.size()) / rows;
  return reshaped(x, {rows, cols});
}

Result expand(const IntTensor& x, const IntTensor& shape) {
  if (shape.dims.size() > 1) return std::nullopt;
  const auto out = broadcast_dims({x.dims, shape.values});
  if (!out) return std::nullopt;
  auto values = broadcast_values(x, *out);
  if (!values) return std::nullopt;
  return finish(IntTensor{x.elem, *out, std::move(*values)});
}

Result transpose(const onnx::NodeProto& n, const IntTensor& x) {
  const auto rank = x.dims.size();
  Dims perm;
  if (auto p = attr_ints(n, "perm")) perm = *p;
  else
    for (std::size_t j = rank; j-- > 0;) perm.push_back(static_cast<std::int64_t>(j));
  if (perm.size() != rank) return std::nullopt;
  std::vector<bool> seen(rank, false);
  Dims out;
  for (auto p : perm) {
    if (p < 0 || p >= static_cast<std::int64_t>(rank) || seen[static_cast<std::size_t>(p)]) return std::nullopt;
    seen[static_cast<std::size_t>(p)] = true;
    out.push_back(x.dims[static_cast<std::size_t>(p)]);
  }
  const auto xs = strides_of(x.dims);
  IntTensor t{x.elem, out, {}};
  for (std::size_t f = 0; f < x.values.size(); ++f) {
    const auto idx = unravel(static_cast<std::int64_t>(f), out);
    std::int64_t src = 0;
    for (std::size_t j = 0; j < rank; ++j) src += idx[j] * xs[static_cast<std::size_t>(perm[j])];
    t.values.push_back(x.values[static_cast<std::size_t>(src)]);
  }
  return finish(std::move(t));
}

Result tile(const IntTensor& x, const IntTensor& repeats) {
  if (repeats.values.size() != x.dims.size()) return std::nullopt;
  Dims out;
  for (std::size_t j = 0; j < x.dims.size(); ++j) {
    std::int64_t d = 0;
    if (repeats.values[j] < 0 || __builtin_mul_overflow(x.dims[j], repeats.values[j], &d)) return std::nullopt;
    out.push_back(d);
  }
  const auto count = element_count(out);
  if (!count) return std::nullopt;
  auto values = gather_values(x, out, *count, [&](std::size_t j, const Dims& idx) { return idx[j] % x.dims[j]; });
  return finish(IntTensor{x.elem, out, std::move(values)});
}

// One sliced axis: its start, step and extent, with ONNX's clamping of starts and ends.
struct SlicedAxis {
  std::int64_t start = 0, step = 1, extent = 0;
};
std::optional<SlicedAxis> slice_axis(std::int64_t dim, std::int64_t start, std::int64_t end, std::int64_t step) {
  if (step == 0 || step == std::numeric_limits<std::int64_t>::min()) return std::nullopt;
  if (start < 0) start = start < -dim ? 0 : start + dim;
  if (end < 0) end = end < -dim ? -1 : end + dim;
  if (step > 0) {
    start = std::clamp<std::int64_t>(start, 0, dim);
    end = std::clamp<std::int64_t>(end, 0, dim);
  } else {
    start = std::clamp<std::int64_t>(start, 0, dim - 1);
    end = std::clamp<std::int64_t>(end, -1, dim - 1);
  }
  const auto span = end - start;
  std::int64_t extent = 0;
  if ((step > 0 && span > 0) || (step < 0 && span < 0)) extent = span / step + (span % step != 0);
  return SlicedAxis{start, step, extent};
}

Result slice(const onnx::NodeProto& n, std::int64_t opset, const std::vector<const IntTensor*>& in) {
  const auto& x = *in[0];
  const auto starts = list_operand(n, opset, 10, in, 1, "starts");
  const auto ends = list_operand(n, opset, 10, in, 2, "ends");
  const auto axes = list_operand(n, opset, 10, in, 3, "axes");
  const auto steps = list_operand(n, opset, 10, in, 4, "steps");
  if (!starts.ok || !ends.ok || !axes.ok || !steps.ok || !starts.given || !ends.given) return std::nullopt;
  const auto k = starts.values.size();
  if (ends.values.size() != k || (axes.given && axes.values.size() != k) || (steps.given && steps.values.size() != k))
    return std::nullopt;
  std::vector<SlicedAxis> sliced(x.dims.size());
  for (std::size_t j = 0; j < x.dims.size(); ++j) sliced[j] = {0, 1, x.dims[j]};
  std::vector<bool> seen(x.dims.size(), false);
  for (std::size_t j = 0; j < k; ++j) {
    const auto a = normalize(axes.given ? axes.values[j] : static_cast<std::int64_t>(j), x.dims.size());
    if (!a || seen[static_cast<std::size_t>(*a)]) return std::nullopt;
    seen[static_cast<std::size_t>(*a)] = true;
    const auto s = slice_axis(x.dims[static_cast<std::size_t>(*a)], starts.values[j], ends.values[j],
                              steps.given ? steps.values[j] : 1);
    if (!s) return std::nullopt;
    sliced[static_cast<std::size_t>(*a)] = *s;
  }
  Dims out;
  for (const auto& s : sliced) out.push_back(s.extent);
  const auto count = element_count(out);
  if (!count) return std::nullopt;
  auto values = gather_values(x, out, *count,
                              [&](std::size_t j, const Dims& idx) { return sliced[j].start + idx[j] * sliced[j].step; });
  return finish(IntTensor{x.elem, out, std::move(values)});
}

// The extents of Split's parts along its axis: the split list (attribute before opset 13, input 1
// from 13 on), else num_outputs parts of ceil(extent / num_outputs) with a shorter last one (opset
// 18), else `outputs` equal parts. Nothing when the parts do not tile the extent.
std::optional<Dims> split_extents(const onnx::NodeProto& n, std::int64_t opset, const std::vector<const IntTensor*>& in,
                                  std::int64_t extent, std::size_t outputs) {
  const auto given = list_operand(n, opset, 13, in, 1, "split");
  if (!given.ok || outputs == 0) return std::nullopt;
  Dims parts = given.values;
  if (!given.given) {
    const auto count = static_cast<std::int64_t>(outputs);
    const std::int64_t chunk = opset >= 18 && attribute(n, "num_outputs") ? (extent + count - 1) / count : extent / count;
    for (std::int64_t k = 0, left = extent; k < count; ++k, left -= chunk) parts.push_back(std::min(chunk, std::max<std::int64_t>(left, 0)));
  }
  std::int64_t total = 0;
  for (auto p : parts)
    if (p < 0 || __builtin_add_overflow(total, p, &total)) return std::nullopt;
  if (parts.size() != outputs || total != extent) return std::nullopt;
  return parts;
}

// Cast between the evaluated types: to a float exactly, from a float truncating toward zero (as
// ONNX Runtime); a float outside int64 cannot be cast.
Result cast(const onnx::NodeProto& n, const IntTensor& x) {
  const auto to = static_cast<int>(attr_int(n, "to", 0));
  if (to != kI64 && to != kI32 && to != kBool && !is_real(to)) return std::nullopt;
  IntTensor t{to, x.dims, {}};
  for (auto v : x.values) {
    const double r = as_real(x.elem, v);
    if (is_real(to)) t.values.push_back(real_bits(r));
    else if (!is_real(x.elem)) t.values.push_back(v);
    else if (to == kBool) t.values.push_back(r != 0);
    else if (std::fabs(r) < 9.2e18) t.values.push_back(static_cast<std::int64_t>(r));
    else return std::nullopt;
  }
  return finish(std::move(t));
}

// Range over floats: ceil((limit - start) / delta) elements.
Result real_range(int elem, double start, double limit, double delta) {
  if (delta == 0) return std::nullopt;
  const double steps = std::ceil((limit - start) / delta);
  if (!(steps < static_cast<double>(kMaxIntElements))) return std::nullopt;
  const auto count = std::max<std::int64_t>(0, static_cast<std::int64_t>(steps));
  IntTensor t{elem, {count}, {}};
  for (std::int64_t i = 0; i < count; ++i) t.values.push_back(real_bits(start + static_cast<double>(i) * delta));
  return finish(std::move(t));
}

Result range(const std::vector<const IntTensor*>& in) {
  if (in.size() != 3) return std::nullopt;
  for (const auto* x : in)
    if (!x || x->values.size() != 1) return std::nullopt;
  if (is_real(in[0]->elem))
    return real_range(in[0]->elem, real_of(in[0]->values[0]), as_real(in[1]->elem, in[1]->values[0]),
                      as_real(in[2]->elem, in[2]->values[0]));
  const auto start = in[0]->values[0], limit = in[1]->values[0], delta = in[2]->values[0];
  std::int64_t span = 0;
  if (delta == 0 || __builtin_sub_overflow(limit, start, &span)) return std::nullopt;
  std::int64_t count = 0;
  if (delta > 0 && span > 0) count = span / delta + (span % delta != 0);
  if (delta < 0 && span < 0) count = span / delta + (span % delta != 0);
  if (count > kMaxIntElements) return std::nullopt;
  IntTensor t{in[0]->elem, {count}, {}};
  for (std::int64_t i = 0; i < count; ++i) t.values.push_back(start + i * delta);
  return finish(std::move(t));
}

// ConstantOfShape: the `value` attribute's one element (float 0 when absent) in every position.
Result constant_of_shape(const onnx::NodeProto& n, const IntTensor& shape) {
  const auto* value = attribute(n, "value");
  if (value && value->type() != onnx::AttributeProto_AttributeType_TENSOR) return std::nullopt;
  const auto fill = value ? small_tensor(value->t()) : std::optional<IntTensor>(IntTensor{kF32, {1}, {real_bits(0.0)}});
  if (!fill || fill->values.size() != 1 || shape.dims.size() > 1) return std::nullopt;
  const auto count = element_count(shape.values);
  if (!count) return std::nullopt;
  return finish(IntTensor{fill->elem, shape.values, Dims(static_cast<std::size_t>(*count), fill->values.front())});
}

// ScatterND without reduction: a copy of data with the slices that `indices` address replaced by
// those of `updates` (in index order, as the ONNX reference).
Result scatter_nd(const onnx::NodeProto& n, const std::vector<const IntTensor*>& in) {
  if (in.size() != 3 || !in[1] || !in[2]) return std::nullopt;
  const auto reduction = attribute(n, "reduction");
  if (reduction && reduction->s() != "none") return std::nullopt;
  const auto& x = *in[0];
  const auto& idx = *in[1];
  const auto& upd = *in[2];
  if (idx.dims.empty()) return std::nullopt;
  const auto k = static_cast<std::size_t>(idx.dims.back());
  if (k == 0 || k > x.dims.size()) return std::nullopt;
  const auto slice = element_count(Dims(x.dims.begin() + static_cast<std::ptrdiff_t>(k), x.dims.end()));
  const auto rows = idx.values.size() / k;
  if (!slice || upd.values.size() != rows * static_cast<std::size_t>(*slice) || upd.elem != x.elem) return std::nullopt;
  const auto xs = strides_of(x.dims);
  IntTensor t = x;
  for (std::size_t r = 0; r < rows; ++r) {
    std::int64_t base = 0;
    for (std::size_t j = 0; j < k; ++j) {
      auto i = idx.values[r * k + j];
      if (i < -x.dims[j] || i >= x.dims[j]) return std::nullopt;
      base += (i < 0 ? i + x.dims[j] : i) * xs[j];
    }
    for (std::int64_t e = 0; e < *slice; ++e)
      t.values[static_cast<std::size_t>(base + e)] = upd.values[r * static_cast<std::size_t>(*slice) + static_cast<std::size_t>(e)];
  }
  return finish(std::move(t));
}

Result reduce(const onnx::NodeProto& n, std::int64_t opset, const std::vector<const IntTensor*>& in) {
  const auto& op = n.op_type();
  const auto axes = list_operand(n, opset, op == "ReduceSum" ? 13 : 18, in, 1, "axes");
  if (!axes.ok) return std::nullopt;
  const auto& x = *in[0];
  std::vector<bool> reduced(x.dims.size(), !axes.given || axes.values.empty());
  if ((!axes.given || axes.values.empty()) && attr_int(n, "noop_with_empty_axes", 0) != 0) return reshaped(x, x.dims);
  for (auto a : axes.values) {
    const auto k = normalize(a, x.dims.size());
    if (!k) return std::nullopt;
    reduced[static_cast<std::size_t>(*k)] = true;
  }
  const bool keep = attr_int(n, "keepdims", 1) != 0;
  Dims out, kept;  // `kept`: x's dims with the reduced ones set to 1
  for (std::size_t j = 0; j < x.dims.size(); ++j) {
    kept.push_back(reduced[j] ? 1 : x.dims[j]);
    if (!reduced[j] || keep) out.push_back(kept.back());
  }
  const auto count = element_count(kept);
  if (!count || (*count > 0 && x.values.empty() && op != "ReduceSum" && op != "ReduceProd")) return std::nullopt;
  const bool real = is_real(x.elem);
  const std::int64_t init = op == "ReduceProd" ? (real ? real_bits(1.0) : 1) : (real ? real_bits(0.0) : 0);
  Dims acc(static_cast<std::size_t>(*count), init);
  std::vector<bool> started(acc.size(), false);
  const auto ks = strides_of(kept);
  for (std::size_t f = 0; f < x.values.size(); ++f) {
    const auto idx = unravel(static_cast<std::int64_t>(f), x.dims);
    std::int64_t dst = 0;
    for (std::size_t j = 0; j < idx.size(); ++j) dst += (reduced[j] ? 0 : idx[j]) * ks[j];
    auto& r = acc[static_cast<std::size_t>(dst)];
    const auto v = x.values[f];
    const bool first = !started[static_cast<std::size_t>(dst)];
    started[static_cast<std::size_t>(dst)] = true;
    if (real) {
      const double a = real_of(r), b = real_of(v);
      const double m = op == "ReduceMax" ? std::max(a, b) : op == "ReduceMin" ? std::min(a, b) : op == "ReduceSum" ? a + b : a * b;
      r = (first && (op == "ReduceMax" || op == "ReduceMin")) ? v : real_bits(m);
    } else if (op == "ReduceMax") r = first ? v : std::max(r, v);
    else if (op == "ReduceMin") r = first ? v : std::min(r, v);
    else if (op == "ReduceSum" ? __builtin_add_overflow(r, v, &r) : __builtin_mul_overflow(r, v, &r)) return std::nullopt;
  }
  return finish(IntTensor{x.elem, out, std::move(acc)});
}

// A Constant given by value_int or value_ints (the tensor form is read directly).
Result constant(const onnx::NodeProto& n) {
  const auto* a = attribute(n, "value_ints");
  if (a && a->type() == onnx::AttributeProto_AttributeType_INTS)
    return finish(IntTensor{kI64, {a->ints_size()}, Dims(a->ints().begin(), a->ints().end())});
  a = attribute(n, "value_int");
  if (a && a->type() == onnx::AttributeProto_AttributeType_INT) return IntTensor{kI64, {}, {a->i()}};
  return std::nullopt;
}

Result dispatch(const onnx::NodeProto& n, std::int64_t opset, const std::vector<const IntTensor*>& in) {
  const auto& op = n.op_type();
  auto arg = [&](std::size_t i) { return i < in.size() ? in[i] : nullptr; };
  if (op == "Constant") return constant(n);
  if (op == "Range") return range(in);
  if (op == "Concat") return concat(n, in);
  if (!arg(0)) return std::nullopt;
  const auto& x = *arg(0);
  if (op == "Identity") return reshaped(x, x.dims);
  if (op == "Not" || real_unary(op, 1.0)) return unary(op, x);
  if (op == "ScatterND") return scatter_nd(n, in);
  if (op == "Cast") return cast(n, x);
  if (op == "Flatten") return flatten(n, x);
  if (op == "Transpose") return transpose(n, x);
  if (op == "ConstantOfShape") return constant_of_shape(n, x);
  if (op == "Unsqueeze") return unsqueeze(n, opset, in);
  if (op == "Squeeze") return squeeze(n, opset, in);
  if (op == "Reshape") return reshape(n, opset, in);
  if (op == "Slice") return slice(n, opset, in);
  if (op.rfind("Reduce", 0) == 0) return reduce(n, opset, in);
  if (op == "Where") {
    if (in.size() != 3 || !in[1] || !in[2]) return std::nullopt;
    return elementwise(in, in[1]->elem, [](const Dims& a) { return std::optional<std::int64_t>(a[0] ? a[1] : a[2]); });
  }
  if (op == "Gather" || op == "Expand" || op == "Tile") {
    if (!arg(1)) return std::nullopt;
    if (op == "Gather") return gather(n, x, *arg(1));
    return op == "Expand" ? expand(x, *arg(1)) : tile(x, *arg(1));
  }
  for (const auto* i : in)
    if (!i) return std::nullopt;
  return binary_or_variadic(n, in);
}

const std::vector<std::string>& int_op_types() {
  static const std::vector<std::string> ops{
      "Shape", "Size", "Constant", "Identity", "Cast", "Gather", "Concat", "Unsqueeze", "Squeeze", "Slice", "Reshape",
      "Flatten", "Expand", "Transpose", "Tile", "Range", "ConstantOfShape", "Where", "Neg", "Abs", "Not", "Sign", "Add",
      "Sub", "Mul", "Div", "Mod", "Max", "Min", "Sum", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And",
      "Or", "Xor", "ReduceProd", "ReduceSum", "ReduceMax", "ReduceMin", "Pow", "Sqrt", "Floor", "Ceil", "Round", "Exp",
      "Log", "Cos", "Sin", "Reciprocal", "Relu", "ScatterND"};
  return ops;
}

}  // namespace

double real_of(std::int64_t bits) {
  double r = 0;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}

std::int64_t real_bits(double value) {
  std::int64_t r = 0;
  std::memcpy(&r, &value, sizeof r);
  return r;
}

bool is_int_op(const std::string& op_type) {
  const auto& ops = int_op_types();
  return std::find(ops.begin(), ops.end(), op_type) != ops.end();
}

std::optional<IntTensor> evaluate_int_op(const onnx::NodeProto& node, std::int64_t opset,
                                         const std::vector<const IntTensor*>& inputs,
                                         const std::vector<std::int64_t>* input0_shape) {
  if (!is_int_op(node.op_type())) return std::nullopt;
  if (node.op_type() == "Shape" || node.op_type() == "Size") {
    if (!input0_shape) return std::nullopt;
    return node.op_type() == "Shape" ? shape_op(node, opset, *input0_shape) : size_op(*input0_shape);
  }
  for (const auto* x : inputs)
    if (x && !well_formed(x)) return std::nullopt;
  return dispatch(node, opset, inputs);
}

std::optional<std::vector<IntTensor>> evaluate_split(const onnx::NodeProto& node, std::int64_t opset,
                                                     const std::vector<const IntTensor*>& inputs) {
  if (node.op_type() != "Split" || inputs.empty() || !well_formed(inputs[0])) return std::nullopt;
  const auto& x = *inputs[0];
  if (inputs.size() > 1 && inputs[1] && !well_formed(inputs[1])) return std::nullopt;
  const auto axis = normalize(attr_int(node, "axis", 0), x.dims.size());
  if (!axis) return std::nullopt;
  const auto a = static_cast<std::size_t>(*axis);
  const auto parts = split_extents(node, opset, inputs, x.dims[a], static_cast<std::size_t>(node.output_size()));
  if (!parts) return std::nullopt;
  std::vector<IntTensor> out;
  std::int64_t start = 0;
  for (auto extent : *parts) {
    Dims dims = x.dims;
    dims[a] = extent;
    const auto count = element_count(dims);
    if (!count) return std::nullopt;
    auto values = gather_values(x, dims, *count, [&](std::size_t j, const Dims& idx) { return idx[j] + (j == a ? start : 0); });
    auto part = finish(IntTensor{x.elem, dims, std::move(values)});
    if (!part) return std::nullopt;
    out.push_back(std::move(*part));
    start += extent;
  }
  return out;
}

}  // namespace stream::onnx_frontend
