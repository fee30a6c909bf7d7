// What the layout model decided in a run (RunResult::layout): the run's mode and, under `--layout
// choose` (choice.hpp), every option priced, the choice, the first pass's latency and the
// conversions done by a strided DMA alone. Values only: the clocks of the choice stay with the
// run's other clocks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/ir/layout.hpp"
#include "stream/layout/choice.hpp"
#include "stream/layout/dma_conversion.hpp"

namespace stream::layout {

/// A layout conversion done by a strided DMA alone (dma_conversion.hpp): it has no group; its
/// cycles and energy add to the run's totals.
struct DmaConversion {
  std::string tensor;  ///< the tensor it reads
  std::string to;      ///< the tensor it writes, `<tensor>_as_<order>`
  std::vector<std::int64_t> shape;
  Layout from;            ///< the layout it reads
  Layout layout;          ///< the layout it writes
  int before_group = -1;  ///< the first group reading `to`: the conversion runs just before it
  DmaConversionCost cost;
};

struct LayoutOutcome {
  LayoutMode mode = LayoutMode::Fixed;  ///< the run's layout mode
  /// `--layout choose`: every tensor moved off chip with its options and choice (the first
  /// pass's figures); empty under Fixed.
  std::vector<LayoutChoice> choices;
  std::int64_t first_pass_latency = 0;  ///< `--layout choose`: the total latency with the model's layouts
  /// `--layout choose`: the conversions done by the DMA alone, in order (their cycles and energy
  /// are in the run's total latency and energy, in no group's).
  std::vector<DmaConversion> dma_conversions;
};

}  // namespace stream::layout
