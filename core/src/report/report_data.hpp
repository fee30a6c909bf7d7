// The figures report.html draws, as one JSON document: per group the schedule of one iteration
// (rows per core and per link with lanes, bars, slots), memory occupancy per core over the
// iteration against its capacity, the cost table (nodes x cores, latency and energy) and the
// binding contributor of every slot. The page's script only draws; every figure is computed here.
//
// Memory occupancy: a tensor the allocation keeps on a core (every tensor produced by a compute
// node or a transfer, on each core of its chosen placement) holds ceil(on-chip tiles x tile bits)
// there, the term of the allocation's capacity row. Its sum is the core's `reserved_bits`, what
// the MILP checks against the capacity; `occupancy_bits` per slot counts only the tensors live in
// that slot (from the slot of their producer to that of their last consumer, to the end of the
// iteration when it has none in the iteration), which shows when the memory is used.
//
// Bottleneck: the slot latency is at least every contribution of its slot (a compute node's
// active latency, a transfer's A / R on its links); the slot's binding contributor is the largest
// (first in node order among equals), classed compute, link or off-chip (a transfer from or to
// the off-chip core; a core-to-core transfer on a bus that also reaches DRAM is a link), and
// placed on its cores or on its links by their one name (Accelerator::link_name).
#pragma once

#include <nlohmann/json.hpp>

#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report::detail {

[[nodiscard]] nlohmann::ordered_json group_report_data(const pipeline::GroupResult& group,
                                                       const hardware::Accelerator& accelerator);

}  // namespace stream::report::detail
