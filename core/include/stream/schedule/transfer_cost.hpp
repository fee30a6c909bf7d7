// What a transfer costs on each link of its plan, with the links' DMA models (hardware/dma.hpp).
//
// A transfer moves one box of a tensor: the steady-state tensor (the tile of one iteration) out
// of the whole tensor. Where one end of the plan is the off-chip core the whole tensor lies there
// in its layout, so the box is that many contiguous runs of it (ir/layout_runs.hpp); between
// on-chip memories the tile is stored compactly, one run. Over a link of bandwidth bw:
//   without a DMA model   cycles = words = ceil(bits / bw)                      (as ever)
//   with one              descriptors D = runs repeated over up to max_strides dims per descriptor
//                         bursts K = sum over runs of ceil(run bits / burst_bits)
//                         words = ceil(K x burst_bits / bw), cycles = D x setup_cycles + words
// The plan's latency is the slowest link's cycles; without any DMA model on the plan's links the
// plan is left exactly as routing priced it (ceil(bits / slowest bandwidth)). Energy per link is
// words x unit_energy_cost + D x setup_energy (transfer_energy.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/layout.hpp"
#include "stream/ir/layout_runs.hpp"
#include "stream/schedule/routing.hpp"

namespace stream::schedule {

/// The box a transfer moves and the tensor it is a box of.
struct TransferBox {
  std::vector<std::int64_t> extents;  ///< the box (the steady-state tensor's shape)
  std::vector<std::int64_t> frame;    ///< the whole tensor's shape (>= extents per axis)
  Layout layout;                      ///< the whole tensor's layout
  std::int64_t element_bits = 0;
};

/// The cost of moving `bits` laid out as `runs` over `link` with DMA model `dma` (null: none).
[[nodiscard]] STREAM_API LinkCost link_cost(const hardware::CommunicationLink& link, const hardware::DmaModel* dma,
                                 std::int64_t bits, const RunCount& runs, std::int64_t element_bits);

/// The runs of `box` on a plan: in the whole tensor when the plan starts or ends at `offchip_core`,
/// else one run of the compact tile.
[[nodiscard]] STREAM_API RunCount plan_runs(const TransferPlan& plan, const TransferBox& box, int offchip_core);

/// Prices `plan` (moving `bits`) link by link when any of its links has a DMA model: fills
/// link_costs and sets latency to the slowest link's cycles. Leaves the plan unchanged otherwise.
STREAM_API void price_plan(TransferPlan& plan, const hardware::Accelerator& accelerator, const TransferBox& box,
                std::int64_t bits);

}  // namespace stream::schedule
