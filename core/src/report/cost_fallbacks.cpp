#include "stream/report/cost_fallbacks.hpp"

#include <map>
#include <sstream>

namespace stream::report {

CostFallbacks cost_fallbacks(const pipeline::GroupResult& g) {
  CostFallbacks out;
  const Workload& w = g.tiled.workload;
  for (std::size_t i : w.computation_nodes()) {
    auto it = g.costs.find(w.node(i).name);
    if (it == g.costs.end()) continue;
    for (const auto& e : it->second) {
      ++out.entries;
      if (e.is_fallback()) out.fallbacks.push_back({g.index, it->first, e.core_id, e.reason});
    }
  }
  return out;
}

CostFallbacks cost_fallbacks(const pipeline::RunResult& r) {
  CostFallbacks out;
  for (const auto& g : r.groups) {
    auto part = cost_fallbacks(g);
    out.entries += part.entries;
    out.fallbacks.insert(out.fallbacks.end(), part.fallbacks.begin(), part.fallbacks.end());
  }
  return out;
}

std::string fallback_warning(const CostFallbacks& f, std::size_t listed) {
  if (f.fallbacks.empty()) return "";
  std::ostringstream s;
  s << f.count() << " of " << f.entries
    << " (node, core) costs are ideal-cycle estimates, not per-core model figures (energy from the traffic model, docs/energy.md); "
       "see core_cost_lut.yaml:";
  for (std::size_t k = 0; k < f.fallbacks.size() && k < listed; ++k) {
    const auto& e = f.fallbacks[k];
    s << "\n  group " << e.group << " node '" << e.node << "' on core " << e.core_id;
  }
  if (f.fallbacks.size() > listed) s << "\n  ... and " << f.fallbacks.size() - listed << " more";
  std::map<std::string, std::size_t> reasons;
  for (const auto& e : f.fallbacks) ++reasons[e.reason];
  s << "\n  reasons:";
  for (const auto& [reason, n] : reasons) s << "\n    " << n << " x " << reason;
  return s.str();
}

}  // namespace stream::report
