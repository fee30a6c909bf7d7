// System energy of one scheduled group, beyond the reference (which computes none); the
// definition is in docs/energy.md:
//   compute  = sum over compute nodes and their cores of the cost-table energy x iterations
//   transfer = sum over transfers and the links of the chosen plan of
//              ceil(bits / link bandwidth) x link unit_energy_cost x fires
//              (on a link with a DMA model: burst-padded words x unit_energy_cost + descriptors x
//              setup_energy, schedule/transfer_cost.hpp)
//   offchip  = sum over transfers leaving / entering the off-chip core of
//              ceil(bits / port width) x r_cost / w_cost of its top memory x fires
// with fires = product of the transfer's non-absent temporal loop sizes / its reuse factor.
#pragma once

#include "stream/allocate/allocation_milp.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/cost/cost_table.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::pipeline {

struct Energy {
  double compute = 0;   ///< pJ
  double transfer = 0;  ///< pJ
  double offchip = 0;   ///< pJ
  [[nodiscard]] double total() const { return compute + transfer + offchip; }
};

/// How often `transfer` fires over the group: its non-absent temporal loop sizes' product / its
/// output's reuse factor, floored (`fires` above).
[[nodiscard]] double transfer_fires(const schedule::SsNode& transfer, std::int64_t reuse);

/// One DMA-priced move over `link`: its words x unit_energy_cost + its descriptors' setup energy.
[[nodiscard]] double dma_link_energy(const hardware::CommunicationLink& link, const schedule::LinkCost& cost);

/// Adds to `total` the link energy of `plan` moving `bits` `fires` times: per link, ceil(bits /
/// bandwidth) x unit_energy_cost, or on a DMA-priced plan the link's words x unit_energy_cost +
/// its descriptors' setup energy, each x fires (the `transfer` term above, link by link, so that
/// every caller sums in the same order and gets the same bits).
void add_link_energy(double& total, const schedule::TransferPlan& plan, const hardware::Accelerator& accelerator,
                     double bits, double fires);

/// Adds to `total` the off-chip energy of moving `bits` `fires` times out of (`read`) and into
/// (`write`) the off-chip core's top memory (the `offchip` term above); nothing without one.
void add_offchip_energy(double& total, const hardware::Accelerator& accelerator, double bits, bool read, bool write,
                        double fires);

[[nodiscard]] Energy group_energy(const schedule::SteadyState& ss, const allocate::Allocation& allocation,
                                  const cost::CostTable& costs, const hardware::Accelerator& accelerator);

}  // namespace stream::pipeline
