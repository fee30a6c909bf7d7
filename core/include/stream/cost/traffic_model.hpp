// The traffic model: an energy, and a latency bound, for a (node, core) pair the per-core model
// cannot cost (an element-wise or one-input op on a two-input MAC array, a tile no loop ordering
// fits). It is ours, not the reference's, which gives such a pair 0 pJ (docs/energy.md, "Pairs the
// per-core model cannot cost").
//
// Every distinct element of every operand of the tile moves once through each level of its
// operand's hierarchy in the core (perfect reuse): an input is read at its top level, written into
// and read out of each level below it, and read by the array; the output is written by the array
// into its lowest level, read out of and written into each level above, and stays at its top
// level. Each such read or write of `bits` through a port costs ZigZag's word count of that port,
// ceil(bits / bandwidth_min) x bandwidth_min / bandwidth_max, times the memory's r_cost or w_cost;
// the tile's operations (the product of its loop sizes, as the ideal-cycle rule counts them) cost
// the array's unit_energy each. The busiest port bounds the latency: its words over the memory's
// instances (all instances move data at once), rounded up.
//
// Tile operands map to the core's memory operands as the per-core model links them: the output to
// O, input k (0-based, ONNX order) to the k-th of the core's input operands I1, I2 (those it has,
// round robin when the node has more inputs). A direction's port is the one the file allocates to
// it, else the memory's first port of a fitting type (read or read_write for reads, write or
// read_write for writes), else none: that move is then not priced (a file without ports).
#pragma once

#include <cstdint>

#include "stream/cost/tile.hpp"
#include "stream/export.hpp"

namespace stream::hardware {
struct Core;
}

namespace stream::cost {

struct TrafficCost {
  double operations = 0;     ///< the tile's operations: the product of its loop sizes
  double op_energy = 0;      ///< operations x unit_energy, pJ
  double memory_energy = 0;  ///< every modelled read and write, pJ
  /// The busiest port's cycles: its words over its memory's instances, rounded up.
  double port_cycles = 0;
  [[nodiscard]] double energy() const { return op_energy + memory_energy; }
};

/// The distinct elements operand `op` of `tile` touches: per axis the span of its index over the
/// tile's loop sizes (sum of |coef| x (size - 1), plus 1), clipped to the window size and the
/// tensor's extent when given.
[[nodiscard]] STREAM_API std::int64_t operand_elements(const TileOperand& op, const Tile& tile);

/// The traffic model of `tile` on `core` (see above); only operations for a core without memories.
[[nodiscard]] STREAM_API TrafficCost traffic_cost(const Tile& tile, const hardware::Core& core);

}  // namespace stream::cost
