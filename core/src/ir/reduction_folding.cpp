#include "stream/ir/reduction_folding.hpp"

#include <set>
#include <string>

#include "stream/error.hpp"

namespace stream {

std::vector<Node> fold_reductions_into_contractions(std::vector<Node> nodes) {
  static const std::set<std::string> contractions{"MatMul", "Gemm", "Einsum", "Conv"};
  for (std::size_t ri = 0; ri < nodes.size(); ++ri) {
    const Node& R = nodes[ri];
    if (R.kind != NodeKind::Computation || R.type != "ReduceSum" || R.inputs.size() != 1 || R.outputs.size() != 1) continue;
    const auto& T = R.inputs[0];
    std::size_t pi = nodes.size(), readers = 0;
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      for (const auto& o : nodes[j].outputs)
        if (o->name == T->name) pi = j;
      for (const auto& in : nodes[j].inputs)
        if (in->name == T->name) ++readers;
    }
    if (pi == nodes.size() || readers != 1) continue;
    Node& P = nodes[pi];
    if (P.kind != NodeKind::Computation || contractions.count(P.type) == 0 || P.outputs.size() != 1) continue;
    const auto& pout = P.operand_mapping.back();
    const auto& rin = R.operand_mapping[0];
    const auto& rout = R.operand_mapping[1];
    // Each R loop that reads T must do so bare; reduced axes must be parallel bare loops of P.
    std::vector<AffineExpr> subs(static_cast<std::size_t>(R.num_dims()), AffineExpr::constant(0));
    bool ok = true;
    for (std::size_t a = 0; a < rin.num_results() && ok; ++a) {
      const int d = rin.result(a).bare_dim();
      if (d < 0) { ok = false; break; }
      subs[static_cast<std::size_t>(d)] = pout.result(a);
      if (!rout.uses_dim(d) && pout.result(a).bare_dim() < 0) ok = false;
    }
    if (!ok) continue;
    std::vector<AffineExpr> results;
    for (const auto& r : rout.results()) results.push_back(r.substitute(subs));
    Node folded = P;
    folded.outputs = R.outputs;
    folded.operand_mapping.back() = AffineMap(P.num_dims(), std::move(results));
    try {
      validate(folded);
    } catch (const Error&) {
      continue;
    }
    P = std::move(folded);
    nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(ri));
    --ri;
  }
  return nodes;
}

}  // namespace stream
