// What one transfer's moves cost in energy (docs/energy.md): the link and off-chip terms of a
// scheduled group's energy (pipeline/energy.hpp), and of the layout model's prices and DMA
// conversions (layout/prices.hpp, layout/dma_conversion.hpp). They live beside transfer_cost.hpp,
// which prices the same plans' cycles, so that the run's energy and the layout model sum one
// transfer's energy the same way without the layout model depending on the pipeline.
//   link    = per link of the plan, ceil(bits / bandwidth) x unit_energy_cost, or on a DMA-priced
//             plan the link's burst-padded words x unit_energy_cost + descriptors x setup_energy
//   offchip = ceil(bits / port width) x r_cost / w_cost of the off-chip core's top memory
// each x the transfer's firings.
#pragma once

#include <cstdint>

#include "stream/hardware/accelerator.hpp"
#include "stream/schedule/routing.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::schedule {

/// How often `transfer` fires over the group: its non-absent temporal loop sizes' product / its
/// output's reuse factor, floored.
[[nodiscard]] double transfer_fires(const SsNode& transfer, std::int64_t reuse);

/// One DMA-priced move over `link`: its words x unit_energy_cost + its descriptors' setup energy.
[[nodiscard]] double dma_link_energy(const hardware::CommunicationLink& link, const LinkCost& cost);

/// Adds to `total` the link energy of `plan` moving `bits` `fires` times: per link, ceil(bits /
/// bandwidth) x unit_energy_cost, or on a DMA-priced plan the link's words x unit_energy_cost +
/// its descriptors' setup energy, each x fires (link by link, so that every caller sums in the
/// same order and gets the same bits).
void add_link_energy(double& total, const TransferPlan& plan, const hardware::Accelerator& accelerator, double bits,
                     double fires);

/// Adds to `total` the off-chip energy of moving `bits` `fires` times out of (`read`) and into
/// (`write`) the off-chip core's top memory; nothing without one.
void add_offchip_energy(double& total, const hardware::Accelerator& accelerator, double bits, bool read, bool write,
                        double fires);

}  // namespace stream::schedule
