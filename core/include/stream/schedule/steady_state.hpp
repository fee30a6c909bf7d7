// The steady-state workload: one iteration of a tiled fusion group with its data transfers made
// explicit, its iteration spaces and its time slots (spec §4.5-§4.7).
//
// Built in three pure steps, each returning a new value (each in its own source file):
//   add_transfers(tiled, accelerator)      transfer nodes and tensors, placements, routing plans  transfers.cpp
//   add_iteration_spaces(ss)               temporal loops per node and tensor, iterations          iteration_spaces.cpp
//   assign_time_slots(ss)                  slots with the disjointness rule                        time_slots.cpp
// steady_state(...) runs the three plus the per-node slot latencies from the cost table.
// Orders follow the reference because they change numbers: transfers are created per tensor in
// (iteration-space node order, inputs then outputs) order and appended after the original nodes;
// slots are assigned in lexicographic topological order keyed by (class rank, insertion position).
//
// Accelerators with memory cores (kind memory, not the off-chip core, in a column below
// nb_cols_to_use when the core has coordinates) stage through them as the reference does (§4.5):
// a constant input reused on chip goes off-chip -> memory (MEM_TO_MEM) -> consumers
// (MEM_TO_COMPUTE), a graph output goes producer -> memory (COMPUTE_TO_MEM) -> off-chip
// (MEM_TO_MEM). The tensor a transfer writes into memory has one placement option per
// combination of memory cores and the transfer one routing plan per (source group, target group),
// so the allocation MILP picks the memory cores. Each plan is priced by the links' DMA models
// where the hardware declares them (schedule/transfer_cost.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "stream/compat.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/cost/cost_table.hpp"
#include "stream/ir/layout.hpp"
#include "stream/schedule/routing.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::schedule {

enum class SsKind { InEdge, OutEdge, Compute, Transfer };
enum class TransferType { MemToCompute, ComputeToCompute, ComputeToMem, MemToMem };
enum class LoopEffect { Varying, Invariant, Absent };
[[nodiscard]] STREAM_API const char* name(SsKind k);
[[nodiscard]] STREAM_API const char* name(TransferType t);
[[nodiscard]] STREAM_API const char* name(LoopEffect e);

struct TemporalLoop {
  int dim = 0;  ///< unified dim
  std::int64_t size = 1;
  LoopEffect effect = LoopEffect::Varying;
};

struct SsTensor {
  std::string name;
  std::int64_t bits = 0;
  std::vector<std::int64_t> shape;
  std::string origin;               ///< the tiled workload's tensor it is (a copy of), by name
  std::vector<std::int64_t> frame;  ///< the untiled tensor's shape: `shape` is a box of it
  Layout layout;                    ///< the untiled tensor's layout
  std::int64_t element_bits = 0;
  std::vector<int> dims;  ///< unified dims that index it, ascending
  int producer = -1;      ///< SsNode index
  std::vector<std::vector<int>> placements;  ///< candidate core groups (P_t)
  std::int64_t tile_bits = 0;  ///< per-core tile under the producer's inter-core split
  /// `--compat stream-1.13`: the tile the memory-capacity rows charge, in the reference's
  /// steady-state dims (reference_memory_tiles.hpp); 0: tile_bits.
  std::int64_t capacity_tile_bits = 0;
  [[nodiscard]] std::int64_t memory_tile_bits() const { return capacity_tile_bits > 0 ? capacity_tile_bits : tile_bits; }
  std::vector<TemporalLoop> loops;  ///< temporal iteration space, innermost first
};

struct SsNode {
  SsKind kind = SsKind::Compute;
  std::string name;
  std::string op_type;
  int source = -1;  ///< node index in the tiled workload, -1 for transfers
  std::vector<int> inputs;   ///< SsTensor indices
  std::vector<int> outputs;  ///< SsTensor indices
  std::vector<int> dims;     ///< unified dims of the node (transfers: of their tensor)
  std::vector<int> cores;    ///< compute: its core group; edges: the offchip core; transfers: every
                             ///< candidate target core, ascending
  std::vector<std::pair<int, std::int64_t>> inter_core_tiling;  ///< compute: (unified dim, factor)
  TransferType transfer_type = TransferType::ComputeToCompute;
  std::vector<TransferPlan> plans;  ///< transfers
  std::vector<TemporalLoop> loops;  ///< temporal iteration space (compute and transfers)
  double lut_latency = 0;           ///< compute: ceil(max over candidate cores of latency_total)
  std::int64_t active_latency = 0;  ///< compute: lut latency scaled by the non-absent loop fraction
  int slot = -1;
};

struct STREAM_API SteadyState {
  std::vector<SsNode> nodes;
  std::vector<SsTensor> tensors;
  std::vector<std::pair<int, std::int64_t>> fusion_splits;
  std::int64_t iterations = 1;
  int max_slot = -1;
  int offchip_core = -1;
  [[nodiscard]] int tensor_index(const std::string& name) const;  ///< -1 when absent
  [[nodiscard]] int node_index(const std::string& name) const;    ///< -1 when absent
};

/// `active(n, x)`: x scaled by the product of the non-absent temporal loops over all of them.
[[nodiscard]] STREAM_API std::int64_t active_latency(const std::vector<TemporalLoop>& loops, double x);

/// The reference's default number of AIE columns whose memory cores may stage tensors.
inline constexpr int kDefaultNbColsToUse = 4;

/// Memory cores usable for staging, by id: kind memory, not the off-chip core, and column
/// (`core_coordinates` [col, row]) below `nb_cols_to_use` when the core has coordinates.
[[nodiscard]] STREAM_API std::vector<int> staging_memory_cores(const hardware::Accelerator& accelerator,
                                                               int nb_cols_to_use = kDefaultNbColsToUse);

/// The memory-core groups a transfer of `type` (MemToMem or ComputeToMem) may write into (§4.5
/// update_mapping): k cores, k = min(#columns of `src_cores`, unrolling) when every source core has
/// coordinates, else ceil(unrolling / (1 for MemToMem, 4 for ComputeToMem)), snapped down to a
/// divisor of the unrolling (and to at most |mem_cores|); then every k-combination of `mem_cores`
/// in lexicographic order. `unrolling` = product of the source's inter-core factors on the dims
/// the transfer moves. For a constant input staged from off-chip (MemToMem) the "source" is the
/// consumer with the largest core group, as in the reference (add_transfers passes its cores).
[[nodiscard]] STREAM_API std::vector<std::vector<int>> memory_core_combinations(const hardware::Accelerator& accelerator,
                                                                                const std::vector<int>& mem_cores,
                                                                                const std::vector<int>& src_cores,
                                                                                std::int64_t unrolling, TransferType type);

/// `router`: a Router to route with (and cache in), shared across groups of one run on the same
/// accelerator; a fresh one when null.
[[nodiscard]] STREAM_API SteadyState add_transfers(const tiling::TiledGroup& tiled, const hardware::Accelerator& accelerator,
                                                   int nb_cols_to_use = kDefaultNbColsToUse, Router* router = nullptr);
[[nodiscard]] STREAM_API SteadyState add_iteration_spaces(SteadyState ss);
[[nodiscard]] STREAM_API SteadyState assign_time_slots(SteadyState ss);
/// Compute latencies from the cost table (throws when a compute node has no entry).
[[nodiscard]] SteadyState add_compute_latencies(SteadyState ss, const cost::CostTable& costs);

/// `nb_cols_to_use`: see staging_memory_cores (the reference's AIE tests pass 8). Under
/// Compat::Stream113 the memory rows' tiles are the reference's (reference_memory_tiles.hpp).
[[nodiscard]] STREAM_API SteadyState steady_state(const tiling::TiledGroup& tiled, const cost::CostTable& costs,
                                                  const hardware::Accelerator& accelerator, Router* router = nullptr,
                                                  int nb_cols_to_use = kDefaultNbColsToUse, Compat compat = Compat::None);

}  // namespace stream::schedule
