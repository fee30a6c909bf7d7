#include "stream/schedule/transfer_energy.hpp"

#include <algorithm>
#include <cmath>

namespace stream::schedule {

double transfer_fires(const SsNode& transfer, std::int64_t reuse) {
  double fires = 1;
  for (const auto& l : transfer.loops)
    if (l.effect != LoopEffect::Absent) fires *= static_cast<double>(l.size);
  return std::floor(fires / static_cast<double>(std::max<std::int64_t>(reuse, 1)));
}

double dma_link_energy(const hardware::CommunicationLink& link, const LinkCost& cost) {
  return static_cast<double>(cost.words) * link.unit_energy_cost + cost.setup_energy;
}

void add_link_energy(double& total, const TransferPlan& plan, const hardware::Accelerator& acc, double bits,
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

}  // namespace stream::schedule
