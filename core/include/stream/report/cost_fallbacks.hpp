// Which (node, core) costs of a run are estimates instead of the per-core model's figures, and
// how much of the run's latency and energy rests on them.
//
// The per-core cost model cannot cost every pair: a map form it does not describe, operands that
// fit no loop ordering of the core's memories (often an fp32 model on hardware sized for bf16 or
// int8), an operator with fewer inputs than the array reads, or a core type it does not model.
// Such a pair gets the ideal-cycle estimate (MACs over the core's units). Every figure built on
// an estimate must say so: the summary counts them and gives their shares, core_cost_lut.yaml
// gives each one's reason, `stream run` warns on stderr, sweep rows, Python's Result and the MCP
// answer carry the same figures, and `--strict` refuses estimates for MAC nodes.
//
// The shares (docs/results.md, "Estimates"), with "scheduled" meaning a pair whose node is a
// compute node of the group's steady state and whose core is one of the cores it runs on:
//   group latency share  f_g = sum of active_latency over the group's compute nodes that have a
//                              scheduled estimated pair / sum of active_latency over all its
//                              compute nodes (the scheduled compute cycles of one iteration)
//   run latency share        = sum over groups of f_g x group latency / total latency
//   energy share             = sum over scheduled estimated pairs of energy_total x iterations
//                              (their part of the compute energy) / total energy
// A node split over several cores counts whole when any of its cores' entries is an estimate:
// its latency is the maximum over them, and an estimate may understate the one that would be it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

struct CostFallback {
  int group = 0;
  std::string node;
  std::string op_type;
  int core_id = -1;
  std::string reason;  ///< in words (cost/fallback_reason.hpp)
  std::string detail;  ///< the model's own text
  bool scheduled = false;
  /// The node has an f32 or f64 tensor (ir/cast.hpp's wide floats, 32 bits or more): a
  /// deployment would cast it (`--cast`), and hardware sized for narrower types cannot hold it.
  bool wide_float = false;
};

struct STREAM_API CostFallbacks {
  std::size_t entries = 0;  ///< (node, core) pairs in the cost tables
  std::size_t scheduled_entries = 0;  ///< of which the schedules use
  std::vector<CostFallback> fallbacks;  ///< the estimated ones, in group then workload order
  double latency_share = 0;  ///< fraction of the latency resting on estimates (above), 0..1
  double energy_share = 0;   ///< fraction of the energy resting on estimates (above), 0..1
  double estimated_energy = 0;  ///< pJ: the scheduled estimated pairs' compute energy
  [[nodiscard]] std::size_t count() const { return fallbacks.size(); }
  [[nodiscard]] std::size_t scheduled() const;  ///< estimated pairs the schedules use
};

/// One group's figures; its shares are of the group's own compute cycles and energy.
[[nodiscard]] STREAM_API CostFallbacks cost_fallbacks(const pipeline::GroupResult& group);
/// The run's figures; its shares are of the run's total latency and energy.
[[nodiscard]] STREAM_API CostFallbacks cost_fallbacks(const pipeline::RunResult& run);

/// A share (0..1) as the result files write it: percent, two decimals.
[[nodiscard]] STREAM_API double share_percent(double share);

/// One warning paragraph (empty when nothing fell back): the count, the shares, the cast hint,
/// where each pair's reason is (`see`: core_cost_lut.yaml, or where a --summary-only run has
/// them), the first `listed` pairs and every distinct reason with its count.
[[nodiscard]] STREAM_API std::string fallback_warning(const CostFallbacks& fallbacks, std::size_t listed = 3,
                                                      const std::string& see = "core_cost_lut.yaml");

/// Where a run's estimates are explained: each pair's reason in core_cost_lut.yaml, or, for a run
/// that writes no per-group files (--summary-only), the distinct reasons in summary.yaml.
[[nodiscard]] STREAM_API std::string estimate_reasons_file(bool group_files);

/// "; the model computes in fp32 ...: try --cast bf16" when an estimate is for a node with an f32
/// or f64 tensor and its reason is that the hardware is sized for narrower types (a memory or a
/// port narrower than one element); empty otherwise. Cast models are what such hardware is for,
/// and the estimate's reason alone did not reach every place the estimate is reported.
[[nodiscard]] STREAM_API std::string cast_hint(const CostFallbacks& fallbacks);

/// One line for the figures' consumers (the MCP answer, Python's warning, `stream run`'s table):
/// "N of M (node, core) costs are ideal-cycle estimates (K used by the schedule), carrying X % of
/// the latency and Y % of the energy", and the cast hint when it applies; empty when there are none.
[[nodiscard]] STREAM_API std::string fallback_note(const CostFallbacks& fallbacks);

/// --strict (docs/results.md): a node does MAC work when its op type names a convolution, a
/// Gemm, a MatMul or a Linear (ir/op_kinds.hpp: Conv, ConvTranspose, ConvInteger, QLinearConv,
/// Gemm, MatMul, MatMulInteger, QLinearMatMul, ...), whose per-core cost the model exists for.
/// The first estimated pair (any, scheduled or not) of such a node, in group then workload then
/// core order; none when every MAC node was costed by a model.
[[nodiscard]] STREAM_API std::optional<CostFallback> first_mac_estimate(const CostFallbacks& fallbacks);
/// How strict_message begins, so that a sweep can tell its rows apart.
inline constexpr const char* kStrictPrefix = "--strict: ";
/// The error --strict gives for it: group, node, op type, core and reason.
[[nodiscard]] STREAM_API std::string strict_message(const CostFallback& estimate);

}  // namespace stream::report
