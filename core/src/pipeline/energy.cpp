#include "stream/pipeline/energy.hpp"

#include <algorithm>
#include <cmath>

#include "stream/schedule/transfer_energy.hpp"

namespace stream::pipeline {

Energy group_energy(const schedule::SteadyState& ss, const allocate::Allocation& a, const cost::CostTable& costs,
                    const hardware::Accelerator& acc) {
  Energy e;
  const double I = static_cast<double>(ss.iterations);
  for (const auto& n : ss.nodes) {
    if (n.kind != schedule::SsKind::Compute) continue;
    auto it = costs.find(n.name);
    if (it == costs.end()) continue;
    for (const auto& c : it->second) e.compute += c.energy_total * I;
  }
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != schedule::SsKind::Transfer || a.plan.empty() || a.plan[i] < 0) continue;
    const auto& plan = n.plans[static_cast<std::size_t>(a.plan[i])];
    const double fires = schedule::transfer_fires(n, a.reuse_factor.at(static_cast<std::size_t>(n.outputs.front())));
    const double bits = static_cast<double>(ss.tensors[static_cast<std::size_t>(n.inputs.front())].bits);
    schedule::add_link_energy(e.transfer, plan, acc, bits, fires);
    const bool from_off = std::find(plan.sources.begin(), plan.sources.end(), ss.offchip_core) != plan.sources.end();
    const bool to_off = std::find(plan.targets.begin(), plan.targets.end(), ss.offchip_core) != plan.targets.end();
    schedule::add_offchip_energy(e.offchip, acc, bits, from_off, to_off, fires);
  }
  return e;
}

}  // namespace stream::pipeline
