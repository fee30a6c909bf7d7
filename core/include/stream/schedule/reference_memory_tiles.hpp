// The per-core tiles the reference's memory-capacity rows charge (`--compat stream-1.13`, rule A3
// of docs/pipeline.md; Stream 1.13's Workload.get_tensor_single_core in the steady-state workload).
//
// The reference recomputes the dims of the steady-state workload from its edges: a transfer is an
// iteration-space node whose maps are the identity of its tensor's rank, and every edge whose two
// ends index an axis with a bare dim equates those dims. A transfer therefore equates, axis by
// axis, its producer's dim with every destination's: in attention the transfer of I to Op0 and
// Op2 makes the query rows the same dim as V's rows, hence (through Op6 and the Softmax) as the
// key axis. The tile of a tensor written by node n is then, per axis, the widest extent over every
// node accessing it when each steady-state dim is divided by n's inter-core split of it (a
// transfer's split: that of its destination on the most cores, none when all its destinations
// share one core). Ours keeps the tiled workload's dims, where query and key stay apart.
#pragma once

#include "stream/schedule/steady_state.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::schedule {

/// Sets SsTensor::capacity_tile_bits of every tensor a compute node or a transfer writes.
[[nodiscard]] STREAM_API SteadyState with_reference_memory_tiles(SteadyState ss, const tiling::TiledGroup& tiled);

}  // namespace stream::schedule
