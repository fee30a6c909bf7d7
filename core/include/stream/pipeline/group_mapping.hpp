// The mapping of one fusion group as the pipeline consumes it: read from a mapping YAML file, or
// generated automatically (spec §3.1, §3.2), and written back as a valid mapping file.
//
// This is the pipeline's minimal own reader/generator until the mapping module (hardware helper)
// lands; it covers what the example flows use:
//  - file: `layers` entries (name or op type, first match wins; core_allocation with one group;
//    inter_core_tiling `D<n>` splits) and one fused group's `intra_core_tiling` (`Node.D<n>`).
//  - automatic: per compute node the specialized cores (operator_types lists its type), else
//    the generic ones (no operator_types), else every compute core, in graph order; the core
//    count is factored over the node's dims by gcd, parallel dims first, then by size, stable;
//    intra-core tiling = the caller's entries for this group, else one whole-layer tile on the
//    first node's D0. (Automatic fusion tiling and the capacity tiler are not modelled.)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::pipeline {

/// Parses "Node.D1=128,Other.D0=16" (the CLI's --intra-core-tiling); throws on bad syntax.
[[nodiscard]] std::vector<tiling::IntraCoreTile> parse_intra_core_tiling(const std::string& spec);

[[nodiscard]] tiling::GroupMapping automatic_mapping(const Workload& group, const hardware::Accelerator& accelerator,
                                                     const std::vector<tiling::IntraCoreTile>& intra_core_tiling = {});

[[nodiscard]] tiling::GroupMapping read_mapping(const std::filesystem::path& file, const Workload& group,
                                                const hardware::Accelerator& accelerator);

/// The group's mapping as a mapping YAML document (layers + one fused group).
[[nodiscard]] std::string mapping_yaml(const Workload& group, const tiling::GroupMapping& mapping);

}  // namespace stream::pipeline
