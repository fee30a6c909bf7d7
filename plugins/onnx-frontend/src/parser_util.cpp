#include "parser_util.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace stream::onnx_frontend {

bool has_input(const OnnxNodeView& v, std::size_t i) { return i < v.inputs.size() && v.inputs[i].present(); }

void require_inputs(const OnnxNodeView& v, std::size_t min_count) {
  for (std::size_t i = 0; i < min_count; ++i)
    if (!has_input(v, i))
      v.fail("expects at least " + std::to_string(min_count) + " inputs, input " + std::to_string(i) + " is missing");
}

TensorPtr input_tensor(const OnnxNodeView& v, OnnxParseContext& ctx, std::size_t i) {
  if (!has_input(v, i)) v.fail("input " + std::to_string(i) + " is missing");
  return ctx.tensor(v.inputs[i].name);
}

TensorPtr output_tensor(const OnnxNodeView& v, OnnxParseContext& ctx, std::size_t i) {
  if (i >= v.outputs.size() || !v.outputs[i].present()) v.fail("output " + std::to_string(i) + " is missing or unused");
  return ctx.tensor(v.outputs[i].name);
}

int normalize_axis(const OnnxNodeView& v, std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  const auto a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r)
    v.fail("axis " + std::to_string(axis) + " is out of range for a tensor of rank " + std::to_string(rank));
  return static_cast<int>(a);
}

AffineMap broadcast_map(const OnnxNodeView& v, const Tensor& operand, const std::vector<std::int64_t>& out_shape,
                        int num_dims) {
  const auto out_rank = out_shape.size();
  if (operand.rank() > out_rank)
    v.fail("operand of rank " + std::to_string(operand.rank()) + " cannot broadcast to rank " + std::to_string(out_rank),
           operand.name);
  std::vector<AffineExpr> results;
  const auto lead = out_rank - operand.rank();
  for (std::size_t j = 0; j < operand.rank(); ++j) {
    const auto o = lead + j;
    if (operand.shape[j] == out_shape[o]) {
      results.push_back(AffineExpr::dim(static_cast<int>(o)));
    } else if (operand.shape[j] == 1) {
      results.push_back(AffineExpr::constant(0));
    } else {
      v.fail("broadcast mismatch: operand axis " + std::to_string(j) + " has size " + std::to_string(operand.shape[j]) +
                 ", incompatible with output size " + std::to_string(out_shape[o]),
             operand.name);
    }
  }
  return AffineMap(num_dims, std::move(results));
}

TensorPtr grouped_view(const OnnxNodeView& v, OnnxParseContext& ctx, const Tensor& t, std::size_t axis, std::int64_t groups,
                       const std::string& role) {
  auto shape = t.shape;
  shape[axis] /= groups;
  shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(axis), groups);
  return ctx.new_tensor(v.name + "_" + role + "_by_group", t.dtype, shape);
}

std::int64_t opset_of(const OnnxNodeView& v) { return v.opset; }

std::optional<EinsumTerms> expand_einsum(const std::string& equation, const std::vector<std::size_t>& ranks) {
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  const auto arrow = eq.find("->");
  std::vector<std::string> terms(1);
  for (char c : eq.substr(0, arrow)) {
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  }
  if (terms.size() != ranks.size()) return std::nullopt;
  // Ellipsis rank per operand, and the broadcast ellipsis rank.
  std::size_t ell = 0;
  std::vector<long> own(terms.size(), -1);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const auto pos = terms[i].find("...");
    if (pos == std::string::npos) {
      if (terms[i].size() != ranks[i]) return std::nullopt;
      continue;
    }
    const auto letters = terms[i].size() - 3;
    if (ranks[i] < letters) return std::nullopt;
    own[i] = static_cast<long>(ranks[i] - letters);
    ell = std::max(ell, ranks[i] - letters);
  }
  auto placeholders = [](std::size_t from, std::size_t count) {
    std::string p;
    for (std::size_t k = from; k < from + count; ++k) p += static_cast<char>('0' + k);
    return p;
  };
  if (ell > 10) return std::nullopt;
  EinsumTerms out;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    auto t = terms[i];
    if (own[i] >= 0) {
      const auto n = static_cast<std::size_t>(own[i]);
      t.replace(t.find("..."), 3, placeholders(ell - n, n));
    }
    for (char c : t)
      if (!std::isalpha(static_cast<unsigned char>(c)) && !(c >= '0' && c <= '9')) return std::nullopt;
    out.inputs.push_back(t);
  }
  if (arrow != std::string::npos) {
    auto rhs = eq.substr(arrow + 2);
    if (const auto pos = rhs.find("..."); pos != std::string::npos) rhs.replace(pos, 3, placeholders(0, ell));
    out.output = rhs;
  } else {
    std::map<char, int> count;
    for (const auto& t : out.inputs)
      for (char c : t)
        if (std::isalpha(static_cast<unsigned char>(c))) ++count[c];
    out.output = placeholders(0, ell);
    for (auto& [c, n] : count)
      if (n == 1) out.output += c;
  }
  return out;
}

std::vector<std::string> numbered_names(const std::string& prefix, std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

AccessRelation masked(const AffineMap& m) {
  AccessRelation r;
  r.kind = AccessKind::PiecewiseAffine;
  r.pieces = {m};
  return r;
}

AccessRelation routed_by(const AffineMap& bound, std::string index_tensor) {
  AccessRelation r;
  r.kind = AccessKind::DataDependent;
  r.pieces = {bound};
  r.index_tensor = std::move(index_tensor);
  return r;
}

void check_output_shape(const OnnxNodeView& v, const Tensor& Y, const std::vector<std::int64_t>& expected,
                        const std::string& rule) {
  if (Y.shape == expected) return;
  std::string e;
  for (auto x : expected) e += (e.empty() ? "" : "x") + std::to_string(x);
  v.fail("output shape disagrees with " + rule + " (expected " + e + ")", Y.name);
}

}  // namespace stream::onnx_frontend
