// Memory use of a run, the third figure the tool predicts beside latency and energy.
//
// Two views, each from the model that knows it. Per core, from the schedule and the allocation:
// the bits of the tensors live in each slot of a group's steady-state iteration (a tensor is live
// from its producer's slot to its last reader's, at the tiles the allocation keeps on chip), its
// peak over every group with the group and slot where it peaks, against the capacity the
// allocation fills (Core::memory_capacity(): the top I1 memory); and what the allocation reserves
// (its capacity row: every tensor placed there, live or not). Per memory level of a per-core model
// core, from the per-core cost model: the most bits one instance of the level holds under the
// chosen mapping of any node the schedule runs on the core (every operand's tile at that level,
// ZigZag's data_bit_per_level), and the node. An estimated (node, core) pair has no mapping and
// adds nothing to the levels. report.html draws the per-slot figures; summary.*, sweep rows, the
// Python Result and the MCP answer carry the peaks (docs/results.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::pipeline {

/// One core in one group: the live bits per slot, and the bits the allocation reserves.
struct SlotOccupancy {
  double reserved_bits = 0;
  std::vector<double> bits;  ///< per slot of the iteration
};

/// core -> its occupancy in group `g` (the cores holding at least one tensor), ascending.
[[nodiscard]] std::map<int, SlotOccupancy> slot_occupancy(const GroupResult& g);

struct LevelMemoryUse {
  std::string memory;              ///< the memory's name in the core file
  std::int64_t capacity_bits = 0;  ///< of one instance
  double peak_bits = 0;            ///< the most one instance holds under a node's mapping
  std::string node;                ///< the node whose mapping holds peak_bits (empty: none)
  [[nodiscard]] double share() const { return capacity_bits > 0 ? peak_bits / static_cast<double>(capacity_bits) : 0; }
};

struct CoreMemoryUse {
  int core = -1;
  std::string name;
  std::int64_t capacity_bits = 0;  ///< what the allocation fills (Core::memory_capacity())
  double peak_bits = 0;            ///< live tensors in one slot, the most over every group
  int peak_group = -1;             ///< the group and slot of the peak (-1: nothing held)
  int peak_slot = -1;
  double reserved_bits = 0;              ///< the most the allocation reserves in one group
  std::vector<LevelMemoryUse> levels;    ///< a core that runs a node: every memory, lowest first
  [[nodiscard]] double share() const { return capacity_bits > 0 ? peak_bits / static_cast<double>(capacity_bits) : 0; }
};

/// Every core that holds a tensor or runs a node, ascending.
[[nodiscard]] STREAM_API std::vector<CoreMemoryUse> memory_use(const RunResult& run, const hardware::Accelerator& accelerator);

/// The core whose peak is the largest share of its capacity (the first on a tie), or nullptr.
[[nodiscard]] STREAM_API const CoreMemoryUse* fullest_core(const std::vector<CoreMemoryUse>& use);

}  // namespace stream::pipeline
