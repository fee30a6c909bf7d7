// The per-run figures the reference reports beside the latency (aie-and-defaults.md §5).
//
// Per group: the latency-weighted MAC spatial utilisation (each compute node's per-core model
// utilisation, ideal / ideal temporal cycles of its first candidate core, weighted by its active
// slot latency; an estimated node counts 0 but keeps its weight), the end-to-end MAC utilisation
// (the group's untiled MACs over peak MACs per cycle times the group latency), whether a MAC node
// was estimated (degenerate), and the MIP gap of the last lexicographic level. For the whole
// run the reference reports the last group's figures; we report each group and a run total over
// all groups (the same formulas over every node and the summed latency), which equals the
// reference's for a single group. Beside them, the run's memory use per core (memory_use.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/memory_use.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::pipeline {

struct UtilisationSums {
  double weighted_mac = 0;        ///< sum of mac_n * lat_n
  double weight = 0;              ///< sum of lat_n
  std::int64_t mac_ops = 0;       ///< untiled MACs of the MAC-type nodes
  std::int64_t latency = 0;       ///< cycles
};

struct GroupMetrics {
  double mac_spatial_utilization = 0;
  std::optional<double> min_mac_spatial_utilization;
  std::optional<double> end_to_end_mac_utilization;  ///< none when a factor is 0
  std::optional<double> mip_gap;                      ///< none without a solution or with primal 0
  std::optional<double> objective;                    ///< last lexicographic level
  bool degenerate = false;
  std::vector<std::string> degenerate_nodes;
  std::int64_t total_mac_ops = 0;
  std::int64_t peak_macs_per_cycle = 0;
  UtilisationSums sums;
};

struct RunMetrics {
  std::vector<GroupMetrics> groups;
  double mac_spatial_utilization = 0;
  std::optional<double> end_to_end_mac_utilization;
  std::int64_t max_group_latency = 0;
  bool degenerate = false;
  std::vector<CoreMemoryUse> memory;  ///< memory_use.hpp
};

/// Peak MACs per cycle: the unit counts of the cores that can run a MAC operator (reference rule).
[[nodiscard]] std::int64_t peak_macs_per_cycle(const hardware::Accelerator& accelerator);
[[nodiscard]] GroupMetrics group_metrics(const GroupResult& group, const hardware::Accelerator& accelerator);
[[nodiscard]] STREAM_API RunMetrics run_metrics(const RunResult& run, const hardware::Accelerator& accelerator);

}  // namespace stream::pipeline
