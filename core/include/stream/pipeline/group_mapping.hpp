// The mapping of one fusion group as the scheduler consumes it (tiling::GroupMapping), taken from
// the mapping module (stream/mapping): a mapping file (spec §3.1, checked against the workload and
// the accelerator) or the automatic mapping (spec §3.2: core selection, gcd split, fusion tiling,
// capacity tiler). A mapping file without a fused group gets one whole-layer tile (first node's
// D0), i.e. one steady-state iteration. mapping_yaml() writes the group's mapping back as a
// valid mapping file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/auto_mapping.hpp"
#include "stream/mapping/mapping.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::pipeline {

/// Parses "Node.D1=128,Other.D0=16" (the CLI's --intra-core-tiling); throws on bad syntax.
[[nodiscard]] STREAM_API std::vector<tiling::IntraCoreTile> parse_intra_core_tiling(const std::string& spec);

/// The scheduler's view of a mapping-module Mapping for one group (first matching layer entry per
/// compute node; intra-core tiles of every fused group in file order).
[[nodiscard]] tiling::GroupMapping to_group_mapping(const mapping::Mapping& mapping, const Workload& group);

/// `excluded_cores` and `fill_fraction`: see mapping::AutoMappingOptions; `tile_cap_reached`: see
/// mapping::generate_mapping.
[[nodiscard]] STREAM_API tiling::GroupMapping automatic_mapping(const Workload& group, const hardware::Accelerator& accelerator,
                                                                const std::vector<tiling::IntraCoreTile>& intra_core_tiling = {},
                                                     const std::vector<int>& excluded_cores = {},
                                                     double fill_fraction = mapping::kDefaultFillFraction, bool* tile_cap_reached = nullptr);

[[nodiscard]] tiling::GroupMapping read_mapping(const std::filesystem::path& file, const Workload& group,
                                                const hardware::Accelerator& accelerator);
/// The same for a mapping in memory (checked as a file's; its source_file names it in errors).
[[nodiscard]] tiling::GroupMapping read_mapping(const mapping::Mapping& mapping, const Workload& group,
                                                const hardware::Accelerator& accelerator);

/// The group's mapping as a mapping YAML document (layers + one fused group).
[[nodiscard]] STREAM_API std::string mapping_yaml(const Workload& group, const tiling::GroupMapping& mapping);

}  // namespace stream::pipeline
