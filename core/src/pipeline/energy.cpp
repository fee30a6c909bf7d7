#include "stream/pipeline/energy.hpp"

#include <algorithm>
#include <cmath>

namespace stream::pipeline {

double transfer_fires(const schedule::SsNode& transfer, std::int64_t reuse) {
  double fires = 1;
  for (const auto& l : transfer.loops)
    if (l.effect != schedule::LoopEffect::Absent) fires *= static_cast<double>(l.size);
  return std::floor(fires / static_cast<double>(std::max<std::int64_t>(reuse, 1)));
}

double dma_link_energy(const hardware::CommunicationLink& link, const schedule::LinkCost& cost) {
  return static_cast<double>(cost.words) * link.unit_energy_cost + cost.setup_energy;
}

void add_link_energy(double& total, const schedule::TransferPlan& plan, const hardware::Accelerator& acc, double bits,
                     double fires) {
  for (std::size_t k = 0; k < plan.links.size(); ++k) {
    const auto& link = acc.links().at(static_cast<std::size_t>(plan.links[k]));
    if (plan.link_costs.empty()) {
      total += std::ceil(bits / link.bandwidth) * link.unit_energy_cost * fires;
    } else {  // a DMA-priced plan: burst-padded words and descriptor setups
      total += dma_link_energy(link, plan.link_costs[k]) * fires;
    }
  }
}

void add_offchip_energy(double& total, const hardware::Accelerator& acc, double bits, bool read, bool write, double fires) {
  const auto& off = acc.offchip_core();
  const auto* dram = off.top_memory(hardware::Operand::I1);
  if (dram == nullptr) return;
  const double rbw = static_cast<double>(off.max_memory_bandwidth(hardware::PortType::Read));
  const double wbw = static_cast<double>(off.max_memory_bandwidth(hardware::PortType::Write));
  if (read && rbw > 0) total += std::ceil(bits / rbw) * dram->r_cost.value_or(0) * fires;
  if (write && wbw > 0) total += std::ceil(bits / wbw) * dram->w_cost.value_or(0) * fires;
}

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
    const double fires = transfer_fires(n, a.reuse_factor.at(static_cast<std::size_t>(n.outputs.front())));
    const double bits = static_cast<double>(ss.tensors[static_cast<std::size_t>(n.inputs.front())].bits);
    add_link_energy(e.transfer, plan, acc, bits, fires);
    const bool from_off = std::find(plan.sources.begin(), plan.sources.end(), ss.offchip_core) != plan.sources.end();
    const bool to_off = std::find(plan.targets.begin(), plan.targets.end(), ss.offchip_core) != plan.targets.end();
    add_offchip_energy(e.offchip, acc, bits, from_off, to_off, fires);
  }
  return e;
}

}  // namespace stream::pipeline
