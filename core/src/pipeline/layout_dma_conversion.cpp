#include "stream/pipeline/layout_dma_conversion.hpp"

#include "stream/ir/layout_copy.hpp"
#include "stream/pipeline/energy.hpp"
#include "stream/schedule/transfer_cost.hpp"

namespace stream::pipeline {

namespace {

// Fewer cycles, then less energy; an exact tie keeps the earlier candidate.
bool cheaper(const DmaConversionCost& a, const DmaConversionCost& b) {
  return a.cycles < b.cycles || (a.cycles == b.cycles && a.energy < b.energy);
}

}  // namespace

std::vector<int> dma_conversion_links(const hardware::Accelerator& acc) {
  std::vector<int> out;
  for (int l : acc.active_links()) {
    const auto& link = acc.links().at(static_cast<std::size_t>(l));
    const auto* dma = acc.dma_of(link);
    if (dma != nullptr && dma->max_strides > 0 && acc.touches_offchip(link)) out.push_back(l);
  }
  return out;
}

std::optional<DmaConversionCost> dma_conversion_cost(const hardware::Accelerator& acc, const std::vector<std::int64_t>& shape,
                                                     std::int64_t element_bits, const Layout& from, const Layout& to) {
  std::int64_t elements = 1;
  for (auto e : shape) elements *= e;
  const std::int64_t bits = elements * element_bits;
  std::optional<DmaConversionCost> best;
  for (int l : dma_conversion_links(acc)) {
    const auto& link = acc.links().at(static_cast<std::size_t>(l));
    const auto* dma = acc.dma_of(link);
    for (const bool walk_target : {true, false}) {
      const auto runs = copy_runs(from, to, shape, walk_target);
      if (!runs) return std::nullopt;
      DmaConversionCost c;
      c.link = l;
      c.walks_target = walk_target;
      c.read = schedule::link_cost(link, dma, bits, runs->read, element_bits);
      c.write = schedule::link_cost(link, dma, bits, runs->write, element_bits);
      c.cycles = c.read.cycles + c.write.cycles;
      c.energy = static_cast<double>(c.read.words + c.write.words) * link.unit_energy_cost + c.read.setup_energy +
                 c.write.setup_energy;
      add_offchip_energy(c.energy, acc, static_cast<double>(bits), true, true, 1);
      if (!best || cheaper(c, *best)) best = c;
    }
  }
  return best;
}

}  // namespace stream::pipeline
