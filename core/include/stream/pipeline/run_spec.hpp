// What a run computes, as values: the mapping, fusion cuts, solver limits, modelling choices and
// the workload's provenance. Two runs with equal specs on the same workload and accelerator give
// byte-identical results, whatever their environment (run_env.hpp: caches, progress, clocks).
// The host builds one RunSpec per request (one function for `stream run`, validate, core-cost,
// sweeps, Python and MCP) and hands the pipeline a workload it has already prepared: read,
// cast, and on the automatic path put in the reference's order and expanded (decompositions), so
// that the pipeline never calls a plugin.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stream/allocate/constraint_selection.hpp"
#include "stream/compat.hpp"
#include "stream/mapping/auto_mapping.hpp"
#include "stream/mapping/mapping.hpp"
#include "stream/cost/cost_backend.hpp"
#include "stream/cost/cost_profile.hpp"
#include "stream/layout/choice.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::pipeline {

enum class CutMode { None, Auto, PerLayer, Explicit };

/// The node order the automatic path schedules in. ByName: run() applies the reference's
/// name-keyed re-sequencing (ir/name_order.hpp). AsPrepared: the caller already did, and then
/// expanded the workload's normalisations as the reference does after it (the host's
/// prepare_workload); run() keeps the order it is given.
enum class WorkloadOrder { ByName, AsPrepared };

/// How the workload was cast before the run (`--cast`), for the summary: the target type (empty:
/// not cast) and how many tensors changed.
struct WorkloadCast {
  std::string to;
  std::size_t tensors = 0;
};

struct RunSpec {
  std::optional<std::filesystem::path> mapping;  ///< a mapping file (one group), else automatic
  /// A mapping in memory (one group), as a mapping file would give it (the mapping search's
  /// variants); used when `mapping` is not set.
  std::shared_ptr<const mapping::Mapping> mapping_data;
  [[nodiscard]] bool has_mapping() const { return mapping || mapping_data; }
  std::vector<mapping::TileEntry> intra_core_tiling;
  /// Automatic mapping only: the cores and splits of the nodes it names (mapping/node_choice.hpp;
  /// the mapping optimizer's candidates), the automatic mapping tiling the groups around them.
  std::shared_ptr<const mapping::NodeChoices> node_choices;
  /// None: the workload's FusionEdges only; Auto: determine_fusion_cut_points (the default of the
  /// automatic path); PerLayer; Explicit: `cut_points`.
  CutMode cut_mode = CutMode::Auto;
  std::vector<std::string> cut_points;
  WorkloadOrder order = WorkloadOrder::ByName;
  int threads = 1;
  double time_limit_s = 0;  ///< per MILP level; 0 = none
  /// The allocation MILP's optional families and pipelining model (constraint_selection.hpp).
  allocate::ConstraintSelection constraints;
  /// Columns whose memory cores may stage tensors (steady_state.hpp; the reference's API default
  /// 4, its AIE tests 8).
  int nb_cols_to_use = schedule::kDefaultNbColsToUse;
  /// Each infeasible group's final allocation keeps its model as MPS text (Allocation::mps),
  /// which report/ writes as group_<i>/model.mps; a fallback attempt's model is never kept.
  bool keep_infeasible_models = false;
  /// The allocation MILP's latency level only (allocate::AllocateOptions::latency_level_only): the
  /// latency is exact, the energy and memory figures are not the run's. The optimizer's latency
  /// search; never a run whose result is written.
  bool latency_level_only = false;
  /// Stop each group after its cost table (no schedule, no MILP): `stream core-cost --workload`.
  bool costs_only = false;
  /// Automatic mapping without a caller tiling only: when memory capacity makes a group's
  /// allocation infeasible, tile finer, then map the group again without the specialised cores
  /// whose memory blocks it, then cut it into one group per layer (beyond the reference, which
  /// stops there; docs/pipeline.md).
  bool memory_fallback = true;
  /// Per-core cost backends (Registries::cost_backend_list(); cost/estimate_costs.hpp). Empty: the
  /// built-in ZigZag-equivalent model costs every core.
  std::vector<CostBackend> cost_backends;
  /// Structural deduplication: a group whose steady state equals an earlier group's up to names
  /// (the MILP's whole input) reuses that group's optimal allocation instead of solving again;
  /// every result file is the same as without it (`stream run --no-dedup` turns it off).
  bool deduplicate = true;
  /// Data layouts (layout/choice.hpp): Fixed keeps the model's and prices them; Choose picks one
  /// per tensor, inserting conversion groups where cheaper, and schedules the groups again.
  layout::LayoutMode layout = layout::LayoutMode::Fixed;
  /// The latency of the ideal-cycle estimates (cost/cost_profile.hpp; docs/cost-model.md): the
  /// reference's rule, or also bounded by their memory traffic (`stream run --cost-profile full`).
  cost::CostProfile cost_profile = cost::CostProfile::Reference;
  /// Whose automatic path (stream/compat.hpp): Stream113 takes the reference's fusion tiling,
  /// capacity tiler and memory rows where they differ from ours (the workload's layout operators
  /// are the caller's: kept as FusionEdges by the frontend).
  Compat compat = Compat::None;
  /// Automatic fusion with the memory fallback only: each solved fused group (two compute nodes
  /// or more) is also run as one group per layer, and the sum of those latencies is kept in
  /// GroupResult::per_layer_latency when it is lower. Every figure of the run stays the fused
  /// group's (the reference's rule); `stream run` sets it to print a hint (docs/pipeline.md).
  bool per_layer_check = false;
  WorkloadCast cast;  ///< copied into the result for the summary
};

}  // namespace stream::pipeline
