// The alternatives' costs of every tensor's layout in one scheduled group (layouts.yaml).
//
// A tensor's layout matters where a transfer moves a box of the whole tensor, i.e. where the
// transfer's chosen plan starts or ends at the off-chip core (schedule/transfer_cost.hpp); on chip
// a tile is stored compactly. For each tensor with such transfers the candidates are its current
// layout ("model": the model's row-major order unless something chose another) and, for each such
// transfer, the order that makes its box fewest runs: the axes the box covers partly outermost,
// then the fully covered ones, each in the model's order ("reader <node>" for a read into node,
// "producer <node>" for a write from it). Each candidate is priced as the sum over those transfers
// of the chosen plan's cycles under that layout times the transfer's firings (the energy's count,
// pipeline/energy.hpp). The cheapest is the first candidate of least cost (the model's order
// first, then in transfer order); under `--layout fixed`, the only mode so far, the model's
// layouts are kept and only priced, so no conversion is inserted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/allocate/allocation_milp.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/layout.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::pipeline {

struct LayoutCandidate {
  std::string from;  ///< "model", "reader <node>", "producer <node>"
  Layout layout;
  std::int64_t cycles = 0;  ///< sum of the tensor's off-chip transfer cycles x firings
};

struct TensorLayoutPrice {
  std::string tensor;
  std::vector<std::int64_t> shape;  ///< the whole tensor
  Layout layout;                    ///< the layout it has (kept: `--layout fixed`)
  std::vector<std::string> transfers;
  std::vector<LayoutCandidate> candidates;  ///< distinct layouts, the current one first
  std::size_t cheapest = 0;                 ///< index into candidates
};

/// The order making a box of `extents` out of `frame` fewest runs (see above).
[[nodiscard]] STREAM_API Layout box_preferred_layout(const std::vector<std::int64_t>& extents, const std::vector<std::int64_t>& frame);

/// Every tensor of the group with a transfer to or from the off-chip core, in order of first
/// transfer. Empty when the allocation chose no plans.
[[nodiscard]] STREAM_API std::vector<TensorLayoutPrice> layout_prices(const schedule::SteadyState& ss,
                                                           const allocate::Allocation& allocation,
                                                           const hardware::Accelerator& accelerator);

/// The sum over the group's transfers of `tensor` (by name) to or from the off-chip core of the
/// chosen plan's cycles under `layout` x the transfer's firings (a candidate's `cycles`); 0 when
/// the group moves no such transfer of it.
[[nodiscard]] STREAM_API std::int64_t tensor_transfer_cycles(const schedule::SteadyState& ss, const allocate::Allocation& allocation,
                                                             const hardware::Accelerator& accelerator,
                                                             const std::string& tensor, const Layout& layout);

}  // namespace stream::pipeline
