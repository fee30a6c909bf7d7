// Layout operators (Reshape, Transpose, Flatten, Squeeze, Unsqueeze) parse to a FusionEdge over
// their data input; the frontend then folds it into its readers where it can (layout_folding.hpp).
// A third-party parser registered for one of these op types replaces this one, folding included.
#include "parser_util.hpp"

namespace stream::onnx_frontend {
namespace {

std::vector<Node> parse_layout(const OnnxNodeView& v, OnnxParseContext& ctx) {
  require_inputs(v, 1);
  auto X = input_tensor(v, ctx, 0);
  auto Y = output_tensor(v, ctx, 0);
  if (X->size_elements() != Y->size_elements())
    v.fail("input has " + std::to_string(X->size_elements()) + " elements but the output " + std::to_string(Y->size_elements()),
           Y->name);
  if (v.op_type == "Transpose") {
    const auto perm = v.attr_ints("perm");
    std::vector<bool> seen(X->rank(), false);
    if (!perm.empty() && perm.size() != X->rank()) v.fail("perm must list every axis", X->name);
    for (auto p : perm) {
      if (p < 0 || p >= static_cast<std::int64_t>(X->rank()) || seen[static_cast<std::size_t>(p)])
        v.fail("perm is not a permutation of the input axes", X->name);
      seen[static_cast<std::size_t>(p)] = true;
    }
  }
  return {make_fusion_edge(v.name, v.op_type, X, Y)};
}

}  // namespace

void add_layout_parsers(std::vector<ParserEntry>& out) {
  for (const char* op : {"Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze"}) out.emplace_back(op, parse_layout);
}

}  // namespace stream::onnx_frontend
