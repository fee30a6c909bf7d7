// System energy of one scheduled group, beyond the reference (which computes none); the
// definition is in docs/energy.md:
//   compute  = sum over compute nodes and their cores of the cost-table energy x iterations
//   transfer = sum over transfers and the links of the chosen plan of
//              ceil(bits / link bandwidth) x link unit_energy_cost x fires
//              (on a link with a DMA model: burst-padded words x unit_energy_cost + descriptors x
//              setup_energy, schedule/transfer_cost.hpp)
//   offchip  = sum over transfers leaving / entering the off-chip core of
//              ceil(bits / port width) x r_cost / w_cost of its top memory x fires
// with fires = product of the transfer's non-absent temporal loop sizes / its reuse factor. The
// transfer and off-chip terms of one transfer are schedule/transfer_energy.hpp's, which the layout
// model (layout/prices.hpp) sums the same way.
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

[[nodiscard]] Energy group_energy(const schedule::SteadyState& ss, const allocate::Allocation& allocation,
                                  const cost::CostTable& costs, const hardware::Accelerator& accelerator);

}  // namespace stream::pipeline
