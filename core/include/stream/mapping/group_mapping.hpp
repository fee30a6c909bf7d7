// The mapping of one fusion group as tiling and scheduling consume it: per node index, its core
// group and inter-core splits, and the group's intra-core tiles. It is resolved from a Mapping
// (mapping.hpp: the file's layer entries matched to the group's nodes, spec §3.1, checked against
// the workload and the accelerator) or made by the automatic mapping (spec §3.2: core selection,
// gcd split, fusion tiling, capacity tiler). A mapping file without a fused group gets one
// whole-layer tile (first node's D0), i.e. one steady-state iteration. mapping_yaml() writes the
// group's mapping back as a valid mapping file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/auto_mapping.hpp"
#include "stream/mapping/mapping.hpp"

namespace stream::mapping {

/// The mapping of one compute node.
struct NodeMapping {
  std::vector<int> cores;  ///< the one candidate core group
  /// Inter-core split: (node-local dim, factor), in mapping-file order.
  std::vector<DimSplit> inter_core_tiling;
  /// The mapping entry's kernel utilisation (percent), when the entry has a kernel: read only by
  /// cost backends that model kernels (the AIE backend, aie-and-defaults §1.3).
  std::optional<double> kernel_utilization;
};

struct GroupMapping {
  /// Per node index of the group workload (empty cores for edges).
  std::vector<NodeMapping> nodes;
  std::vector<TileEntry> intra_core_tiling;  ///< in file order (the temporal loop order, innermost first)
};

/// The group mapping of a Mapping for one group (first matching layer entry per
/// compute node; intra-core tiles of every fused group in file order).
[[nodiscard]] STREAM_API GroupMapping to_group_mapping(const Mapping& mapping, const Workload& group);

/// `excluded_cores`, `fill_fraction`, `by_tile_cost_past_cap` and `compat`: see
/// AutoMappingOptions; `tile_cap_reached`: see generate_mapping.
[[nodiscard]] STREAM_API GroupMapping automatic_mapping(const Workload& group, const hardware::Accelerator& accelerator,
                                                   const std::vector<TileEntry>& intra_core_tiling = {},
                                                   const std::vector<int>& excluded_cores = {},
                                                   double fill_fraction = kDefaultFillFraction,
                                                   bool* tile_cap_reached = nullptr,
                                                   bool by_tile_cost_past_cap = false, Compat compat = Compat::None);

/// The same from the whole options (AutoMappingOptions::choices included).
[[nodiscard]] GroupMapping automatic_mapping(const Workload& group, const hardware::Accelerator& accelerator,
                                             const AutoMappingOptions& options, bool* tile_cap_reached);

/// The part of a mapping one fusion group reads: with two fused groups or more (a file written
/// per fusion group), only the fused groups naming one of the group's compute nodes; else all.
[[nodiscard]] Mapping for_group(const Mapping& mapping, const Workload& group);

/// The group's mapping as a Mapping: a layer entry per compute node and one fused group named
/// `name` with the group's intra-core tiling. Concatenating those of a run's groups gives the
/// run's mapping file (two fused groups or more: one per fusion group).
[[nodiscard]] Mapping as_mapping(const Workload& group, const GroupMapping& mapping, const std::string& name);

[[nodiscard]] STREAM_API GroupMapping read_mapping(const std::filesystem::path& file, const Workload& group,
                                              const hardware::Accelerator& accelerator);
/// The same for a mapping in memory (checked as a file's; its source_file names it in errors).
[[nodiscard]] STREAM_API GroupMapping read_mapping(const Mapping& mapping, const Workload& group,
                                              const hardware::Accelerator& accelerator);

/// The group's mapping as a mapping YAML document (layers + one fused group).
[[nodiscard]] STREAM_API std::string mapping_yaml(const Workload& group, const GroupMapping& mapping);

}  // namespace stream::mapping
