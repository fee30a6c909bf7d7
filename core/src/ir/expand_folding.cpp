#include "stream/ir/expand_folding.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "stream/error.hpp"
#include "stream/ir/iteration_space.hpp"

namespace stream {

std::vector<Node> fold_expands(std::vector<Node> nodes) {
  for (std::size_t ei = nodes.size(); ei-- > 0;) {
    const Node E = nodes[ei];
    if (E.kind != NodeKind::Computation || E.type != "Expand" || E.inputs.size() != 1 || E.outputs.size() != 1) continue;
    const auto& ymap = E.operand_mapping[1];
    const int ed = E.num_dims();
    if (static_cast<int>(ymap.num_results()) != ed) continue;
    std::vector<int> axis_of_dim(static_cast<std::size_t>(ed), -1);
    bool bare = true;
    for (std::size_t a = 0; a < ymap.num_results(); ++a) {
      const auto& r = ymap.result(a);
      if (!r.is_dim() || axis_of_dim[static_cast<std::size_t>(r.position())] != -1) bare = false;
      else axis_of_dim[static_cast<std::size_t>(r.position())] = static_cast<int>(a);
    }
    if (!bare) continue;
    const auto& Y = E.outputs[0];
    auto trial = nodes;
    bool ok = true, any = false;
    for (std::size_t ri = 0; ri < trial.size() && ok; ++ri) {
      if (ri == ei) continue;
      Node& R = trial[ri];
      bool reads = false;
      for (const auto& t : R.inputs) reads = reads || t->name == Y->name;
      if (!reads) continue;
      if (!R.has_iteration_space()) {
        ok = false;
        break;
      }
      any = true;
      auto bare_dims = [&](const Node& n) {
        std::set<int> s;
        for (const auto& m : n.operand_mapping)
          for (const auto& r : m.results())
            if (r.is_dim()) s.insert(r.position());
        return s;
      };
      const auto before = bare_dims(R);
      std::map<int, std::int64_t> extents;  // reader dims that indexed a Y axis alone
      for (std::size_t i = 0; i < R.inputs.size(); ++i) {
        if (R.inputs[i]->name != Y->name) continue;
        const auto& M = R.operand_mapping[i];
        std::vector<AffineExpr> subs;
        for (int j = 0; j < ed; ++j) subs.push_back(M.result(static_cast<std::size_t>(axis_of_dim[static_cast<std::size_t>(j)])));
        for (std::size_t a = 0; a < M.num_results(); ++a)
          if (M.result(a).is_dim()) extents[M.result(a).position()] = Y->shape[a];
        std::vector<AffineExpr> xr;
        for (const auto& r : E.operand_mapping[0].results()) xr.push_back(r.substitute(subs).simplified());
        R.operand_mapping[i] = AffineMap(R.num_dims(), xr);
        R.inputs[i] = E.inputs[0];
        if (i < R.access_overrides.size() && R.access_overrides[i]) R.access_overrides[i]->pieces = {R.operand_mapping[i]};
      }
      const auto after = bare_dims(R);
      for (int d : before)
        if (after.count(d) == 0 && extents.count(d) != 0) R.window_extents.emplace_back(d, extents[d]);
      try {
        validate(R);
        (void)loop_sizes(R);
      } catch (const Error&) {
        ok = false;
      }
    }
    if (!ok || !any) continue;
    trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(ei));
    nodes = std::move(trial);
  }
  return nodes;
}

}  // namespace stream
