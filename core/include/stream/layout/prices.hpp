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
// schedule/transfer_energy.hpp). The cheapest is the first candidate of least cost (the model's
// order first, then in transfer order). These are layouts.yaml's `candidates`, the same under both
// modes, priced by the run once each group is solved (GroupResult::layout_prices) so that the
// report writes them without pricing again; `--layout choose` prices its own options with
// tensor_transfer_price (cycles and energy, per side) over every group (candidates.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/allocate/allocation_milp.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/layout.hpp"
#include "stream/ir/workload.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::layout {

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

/// True where a layout can change a figure of `group`, so that the run prices its layouts
/// (GroupResult::layout_prices, layouts.yaml): the accelerator declares a DMA model on some
/// connection, or some tensor of the group is not row-major. Elsewhere every layout prices the
/// same (bits / bandwidth).
[[nodiscard]] STREAM_API bool layouts_matter(const Workload& group, const hardware::Accelerator& accelerator);

/// Every tensor of the group with a transfer to or from the off-chip core, in order of first
/// transfer. Empty when the allocation chose no plans.
[[nodiscard]] STREAM_API std::vector<TensorLayoutPrice> layout_prices(const schedule::SteadyState& ss,
                                                           const allocate::Allocation& allocation,
                                                           const hardware::Accelerator& accelerator);

/// What moving a tensor to and from off-chip memory costs over a group: the chosen plans' cycles
/// and link energy (pJ: words x unit_energy_cost + descriptors x setup_energy per link,
/// schedule/transfer_energy.hpp), each x the transfer's firings.
struct TransferPrice {
  std::int64_t cycles = 0;
  double energy = 0;
};

/// Which of a tensor's off-chip transfers to price: all, the writes into off-chip memory (its
/// producer's side) or the reads out of it (its readers' side).
enum class TransferSide { Both, Writes, Reads };

/// The price of the group's transfers of `tensor` (by name) on `side` to or from the off-chip core
/// under `layout` (a candidate's `cycles` is the price's cycles with TransferSide::Both); zero
/// when the group moves no such transfer of it.
[[nodiscard]] STREAM_API TransferPrice tensor_transfer_price(const schedule::SteadyState& ss,
                                                             const allocate::Allocation& allocation,
                                                             const hardware::Accelerator& accelerator,
                                                             const std::string& tensor, const Layout& layout,
                                                             TransferSide side = TransferSide::Both);

}  // namespace stream::layout
