#include "stream/layout/dma_conversion.hpp"

#include "stream/ir/checked.hpp"
#include "stream/layout/copy.hpp"
#include "stream/schedule/transfer_cost.hpp"
#include "stream/schedule/transfer_energy.hpp"

namespace stream::layout {

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
  const std::int64_t bits =
      checked_mul(checked_product(shape, "a layout conversion's tensor"), element_bits, "a layout conversion's bits");
  const auto links = dma_conversion_links(acc);
  if (links.empty()) return std::nullopt;
  // The runs of each walk (in the target's order, in the source's) do not depend on the link.
  const std::optional<CopyRuns> walks[2] = {copy_runs(from, to, shape, true), copy_runs(from, to, shape, false)};
  if (!walks[0] || !walks[1]) return std::nullopt;
  std::optional<DmaConversionCost> best;
  for (int l : links) {
    const auto& link = acc.links().at(static_cast<std::size_t>(l));
    const auto* dma = acc.dma_of(link);
    for (const bool walk_target : {true, false}) {
      const CopyRuns& runs = *walks[walk_target ? 0 : 1];
      DmaConversionCost c;
      c.link = l;
      c.walks_target = walk_target;
      c.read = schedule::link_cost(link, dma, bits, runs.read, element_bits);
      c.write = schedule::link_cost(link, dma, bits, runs.write, element_bits);
      c.cycles = c.read.cycles + c.write.cycles;
      c.energy = schedule::dma_link_energy(link, c.read) + schedule::dma_link_energy(link, c.write);
      schedule::add_offchip_energy(c.energy, acc, static_cast<double>(bits), true, true, 1);
      if (!best || cheaper(c, *best)) best = c;
    }
  }
  return best;
}

}  // namespace stream::layout
