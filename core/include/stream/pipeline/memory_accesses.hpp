// Memory accesses of one scheduled group: how often each core's top memory is read and written by
// the group's transfers (the reference's MemoryAccessesEstimationStage, spec §4.10; observability
// only, nothing downstream uses it).
//
// For every transfer r with its chosen plan and placements:
//   fires(r)  = product of r's non-absent temporal loop sizes // reuse factor the MILP chose for
//               r's first output (the same count as the latency model and docs/energy.md)
//   sources   = the cores holding r's input (its chosen placement: the off-chip core for a graph
//               input, else the producer's core group); each READS its per-core tile of the input
//               (the tile under the producer's inter-core split; the whole tensor off-chip):
//               reads += ceil(tile bits / read bandwidth) x fires
//   targets   = the cores that receive r's outputs (union of the outputs' chosen placements: the
//               consumers' cores, or the off-chip core for a graph output); each WRITES its
//               per-core tile of the output (the tile under the widest consumer's split, halos
//               included, the whole tensor when the target is one core):
//               writes += ceil(tile bits / write bandwidth) x fires
// Bandwidth = bandwidth_max of the first read (write) or read_write port of the core's top I1
// memory (Core::max_memory_bandwidth), so one "access" is one port-width word. A core without such
// a port gets bandwidth 0 and no access count (its bits are still counted); the reference fails
// the whole stage (its result is None on any error, spec §4.2) instead.
//
// Choices where the spec is terse, made to follow its formula literally:
//  - The destination counts the OUTPUT tile (what lands in that core), not the source tile, so
//    a multicast (weights to four cores) writes four times what it reads, and halos of a split
//    convolution input are written twice. For a transfer with one target core the bits written
//    equal the bits read (the producer's tiles partition the tensor).
//  - A transfer whose source and target are the same core (no links) still counts its read and
//    write, as the formula does not look at the plan's links.
//  - Memory tiles (memory-kind cores holding a staged copy: writes of the input tile, reads of
//    the output tile) never occur: the steady state does not stage through memory cores.
// Scope: the counts cover the WHOLE group, i.e. all `iterations` steady-state iterations, because
// the temporal loops of the iteration spaces enumerate every iteration (fires is how often a
// transfer happens in the group, not per iteration). Divide by `iterations` for an average
// iteration. Order is deterministic: cores by id; within a core, transfers in schedule order,
// source (read) entry before target (write) entry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/allocate/allocation_milp.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::pipeline {

enum class AccessRole { Source, Target };
[[nodiscard]] const char* name(AccessRole role);  ///< "source", "target"

/// One transfer's accesses on one core: reads for a source, writes for a target.
struct TransferAccess {
  std::string transfer;  ///< transfer node name
  std::string tensor;    ///< tensor read (source) or written (target)
  AccessRole role = AccessRole::Source;
  std::int64_t tile_bits = 0;   ///< per-core tile moved each time the transfer fires
  std::int64_t bandwidth = 0;   ///< bits per access (port width); 0 = unknown
  std::int64_t fires = 0;
  std::int64_t accesses = 0;    ///< ceil(tile_bits / bandwidth) x fires
  std::int64_t bits = 0;        ///< tile_bits x fires
};

struct CoreMemoryAccesses {
  int core = -1;
  std::string core_name;
  std::int64_t read_bandwidth = 0;   ///< bits per read access
  std::int64_t write_bandwidth = 0;  ///< bits per write access
  std::int64_t reads = 0, writes = 0;
  std::int64_t bits_read = 0, bits_written = 0;
  std::vector<TransferAccess> transfers;
};

struct STREAM_API MemoryAccesses {
  std::int64_t iterations = 1;  ///< the counts cover all of them
  std::vector<CoreMemoryAccesses> cores;  ///< ascending core id; only cores some transfer touches
  std::int64_t reads = 0, writes = 0;
  std::int64_t bits_read = 0, bits_written = 0;
  [[nodiscard]] const CoreMemoryAccesses* core(int id) const;  ///< nullptr when untouched
};

/// Needs a solved allocation (a chosen plan per transfer); an unsolved one gives no accesses.
[[nodiscard]] STREAM_API MemoryAccesses estimate_memory_accesses(const schedule::SteadyState& ss,
                                                                 const allocate::Allocation& allocation,
                                                                 const hardware::Accelerator& accelerator);

}  // namespace stream::pipeline
