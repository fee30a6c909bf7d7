// The DMA model of a connection: what moving a tensor's contiguous runs costs beyond bandwidth.
//
// Hardware files may give a `core_connectivity` entry (or the accelerator, as the default of every
// entry) a `dma: {burst_bits, setup_cycles, max_strides, setup_energy}`. A transfer over such a
// link is priced by the contiguous runs of the box it moves under the tensor's layout
// (ir/layout_runs.hpp): each DMA descriptor costs `setup_cycles` (and `setup_energy` pJ), one
// descriptor repeats a run over up to `max_strides` nested memory dims (0: a descriptor per run),
// and every run moves whole bursts of `burst_bits` (a run shorter than a burst still occupies one),
// at the link's bandwidth. A connection without a DMA model costs what it always did:
// ceil(bits / bandwidth) cycles (schedule/transfer_cost.hpp has both formulas; docs/layout.md).
#pragma once

#include <cstdint>

#include "stream/error.hpp"

namespace stream::hardware {

struct DmaModel {
  std::int64_t burst_bits = 1;    ///< >= 1
  std::int64_t setup_cycles = 0;  ///< >= 0, per descriptor
  int max_strides = 0;            ///< >= 0, nested strided dims one descriptor walks
  double setup_energy = 0;        ///< pJ per descriptor, >= 0
  Location where;                 ///< the `dma` mapping in the hardware file
  [[nodiscard]] bool operator==(const DmaModel& o) const {
    return burst_bits == o.burst_bits && setup_cycles == o.setup_cycles && max_strides == o.max_strides &&
           setup_energy == o.setup_energy;
  }
};

}  // namespace stream::hardware
