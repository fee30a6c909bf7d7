#include "stream/schedule/transfer_cost.hpp"

#include <algorithm>
#include <cmath>

namespace stream::schedule {

namespace {

std::int64_t words_of(double bits, double bandwidth) { return static_cast<std::int64_t>(std::ceil(bits / bandwidth)); }

bool touches(const std::vector<int>& cores, int core) { return std::find(cores.begin(), cores.end(), core) != cores.end(); }

}  // namespace

LinkCost link_cost(const hardware::CommunicationLink& link, const hardware::DmaModel* dma, std::int64_t bits,
                   const RunCount& runs, std::int64_t element_bits) {
  LinkCost c;
  c.runs = runs.runs();
  if (dma == nullptr) {
    c.words = words_of(static_cast<double>(bits), link.bandwidth);
    c.cycles = c.words;
    return c;
  }
  c.descriptors = runs.descriptors(dma->max_strides);
  const std::int64_t bursts = runs.bursts(element_bits, dma->burst_bits);
  c.words = words_of(static_cast<double>(bursts) * static_cast<double>(dma->burst_bits), link.bandwidth);
  c.cycles = c.descriptors * dma->setup_cycles + c.words;
  c.setup_energy = static_cast<double>(c.descriptors) * dma->setup_energy;
  return c;
}

RunCount plan_runs(const TransferPlan& plan, const TransferBox& box, int offchip_core) {
  if (touches(plan.sources, offchip_core) || touches(plan.targets, offchip_core))
    return count_runs(box.layout, box.frame, box.extents);
  return count_runs(Layout{}, box.extents, box.extents);
}

void price_plan(TransferPlan& plan, const hardware::Accelerator& acc, const TransferBox& box, std::int64_t bits) {
  const auto& links = acc.links();
  const bool any_dma = std::any_of(plan.links.begin(), plan.links.end(), [&](int l) {
    return acc.dma_of(links.at(static_cast<std::size_t>(l))) != nullptr;
  });
  if (!any_dma) return;
  const RunCount runs = plan_runs(plan, box, acc.offchip_core_id);
  plan.link_costs.clear();
  plan.latency = 0;
  for (int l : plan.links) {
    const auto& link = links.at(static_cast<std::size_t>(l));
    plan.link_costs.push_back(link_cost(link, acc.dma_of(link), bits, runs, box.element_bits));
    plan.latency = std::max(plan.latency, plan.link_costs.back().cycles);
  }
}

}  // namespace stream::schedule
