// A layout conversion done by a strided DMA engine alone, without a compute core (`--layout
// choose`, docs/layout.md "A conversion on the DMA").
//
// Where a connection touching the off-chip core declares a DMA model with max_strides > 0, its
// engine can rewrite a tensor lying in off-chip memory from one layout into another: it reads the
// tensor in the source layout and writes it in the target one, walking the elements in one of the
// two memory orders (copy.hpp gives both sides' runs). Each side is priced as a transfer
// of the whole tensor over that connection by its DMA model (schedule/transfer_cost.hpp):
// D x setup_cycles + ceil(K x burst_bits / bandwidth) cycles, words x unit_energy_cost + D x
// setup_energy pJ; the conversion's cycles are the read's plus the write's (one engine, one
// connection, one after the other), its energy theirs plus the off-chip memory's read and write
// of the tensor (schedule/transfer_energy.hpp's off-chip term). Of the two walks and the strided
// connections the cheapest is taken (fewest cycles, then least energy; ties go to the lower link
// id, and on one link to the walk in the target's order).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/layout.hpp"
#include "stream/schedule/routing.hpp"

namespace stream::layout {

struct DmaConversionCost {
  int link = -1;             ///< the link (Accelerator::links()) whose engine converts
  bool walks_target = true;  ///< the walk follows the target's memory order (the write is one run)
  schedule::LinkCost read;   ///< the source side
  schedule::LinkCost write;  ///< the target side
  std::int64_t cycles = 0;   ///< read.cycles + write.cycles
  double energy = 0;         ///< pJ: both sides' link energy and the off-chip memory's
};

/// The links that can convert: those of connections touching the off-chip core whose DMA model has
/// max_strides > 0 (active links, id order).
[[nodiscard]] STREAM_API std::vector<int> dma_conversion_links(const hardware::Accelerator& accelerator);

/// The cheapest DMA conversion of a tensor of `shape` (`element_bits` per element) from `from` into
/// `to`; nullopt when no link can convert or the layouts' blocks do not nest (copy.hpp).
[[nodiscard]] STREAM_API std::optional<DmaConversionCost> dma_conversion_cost(const hardware::Accelerator& accelerator,
                                                                              const std::vector<std::int64_t>& shape,
                                                                              std::int64_t element_bits,
                                                                              const Layout& from, const Layout& to);

}  // namespace stream::layout
