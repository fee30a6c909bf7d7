#include "stream/pipeline/energy.hpp"

#include <algorithm>
#include <cmath>

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
  const auto& off = acc.offchip_core();
  const auto* dram = off.top_memory(hardware::Operand::I1);
  const double rbw = static_cast<double>(off.max_memory_bandwidth(hardware::PortType::Read));
  const double wbw = static_cast<double>(off.max_memory_bandwidth(hardware::PortType::Write));
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != schedule::SsKind::Transfer || a.plan.empty() || a.plan[i] < 0) continue;
    const auto& plan = n.plans[static_cast<std::size_t>(a.plan[i])];
    const auto out = static_cast<std::size_t>(n.outputs.front());
    double fires = 1;
    for (const auto& l : n.loops)
      if (l.effect != schedule::LoopEffect::Absent) fires *= static_cast<double>(l.size);
    fires = std::floor(fires / static_cast<double>(a.reuse_factor.at(out)));
    const double bits = static_cast<double>(ss.tensors[static_cast<std::size_t>(n.inputs.front())].bits);
    for (std::size_t k = 0; k < plan.links.size(); ++k) {
      const auto& link = acc.links().at(static_cast<std::size_t>(plan.links[k]));
      if (plan.link_costs.empty()) {
        e.transfer += std::ceil(bits / link.bandwidth) * link.unit_energy_cost * fires;
      } else {  // a DMA-priced plan: burst-padded words and descriptor setups
        const auto& c = plan.link_costs[k];
        e.transfer += (static_cast<double>(c.words) * link.unit_energy_cost + c.setup_energy) * fires;
      }
    }
    if (dram == nullptr) continue;
    const bool from_off = std::find(plan.sources.begin(), plan.sources.end(), ss.offchip_core) != plan.sources.end();
    const bool to_off = std::find(plan.targets.begin(), plan.targets.end(), ss.offchip_core) != plan.targets.end();
    if (from_off && rbw > 0) e.offchip += std::ceil(bits / rbw) * dram->r_cost.value_or(0) * fires;
    if (to_off && wbw > 0) e.offchip += std::ceil(bits / wbw) * dram->w_cost.value_or(0) * fires;
  }
  return e;
}

}  // namespace stream::pipeline
