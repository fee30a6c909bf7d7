// What a design point costs in silicon: the reference's built-in hardware cost model
// (dse-area-dedup-mcp.md §1), which prices an accelerator file on its own, before any workload.
// Area in mm² comes from the SRAM bits of the on-die memories (every instance of a memory the
// array replicates) and from the MAC units; "peak power" is a peak access energy per cycle (the
// model has no clock): every port of every counted memory read at the widest port's width, plus
// every MAC. Constants come from one technology node (n16, the only one the reference ships).
// Deliberately as the reference: the YAML's r_cost/w_cost/area/latency and the interconnect
// play no part, write ports are charged the read energy, and a memory shared by several cores
// (memory_aliases) is counted once, at its group's first member. The budget guard compares a
// report against limits, as the reference's check_budget does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"

namespace stream::hardware {

struct TechnologyNode {
  std::string name = "n16";
  double read_pj_per_bit = 0.16;
  double write_pj_per_bit = 0.18;
  double sram_um2_per_bit = 0.10;
  double mac_area_um2 = 200.0;
  double mac_energy_pj = 0.5;
  double dram_pj_per_bit = 4.0;  ///< off-die memories, read and write
};

struct MemoryCost {
  int core_id = -1;
  std::string core_name;
  std::string memory_name;
  std::string style;  ///< "sram" (on die) or "off_die"
  std::int64_t instances = 0;
  std::int64_t bits_per_instance = 0;
  std::int64_t total_bits = 0;
  std::int64_t access_width_bits = 0;  ///< the widest port's bandwidth_max
  std::int64_t nb_ports = 0;
  double area_mm2 = 0;
  double read_energy_pj = 0;  ///< per access of one port width
  double write_energy_pj = 0;
  bool counted = false;       ///< on die, and not a non-first member of an alias group
  std::string alias_group;    ///< "core.memory+core.memory", empty when not aliased
};

struct ComputeCost {
  int core_id = -1;
  std::string core_name;
  bool modelled = false;  ///< false for arrays the model cannot price (AIE tiles)
  std::int64_t nb_units = 0;
  std::string input_format;
  std::string accumulator_format;
  bool precision_declared = false;
  double area_mm2 = 0;
  double energy_per_op_pj = 0;
};

struct CoreCost {
  int core_id = -1;
  std::string name;
  std::string core_type;  ///< "zigzag.compute", ...
  bool on_die = true;
  std::vector<MemoryCost> memories;
  std::optional<ComputeCost> compute;  ///< none off die, or without any unit
  double area_mm2 = 0;
};

struct HardwareCostReport {
  std::string bundle_name;
  std::string technology_node;
  bool technology_declared = false;
  std::vector<CoreCost> cores;  ///< by core id
  double total_area_mm2 = 0;
  double memory_area_mm2 = 0;
  double compute_area_mm2 = 0;
  std::int64_t on_die_memory_bits = 0;
  std::int64_t off_die_memory_bits = 0;
  double peak_access_energy_pj_per_cycle = 0;
  double off_die_access_energy_pj_per_cycle = 0;
  std::vector<std::string> warnings;  ///< in first-occurrence order, no repeats
  std::optional<bool> compute_modelled;  ///< none when no core has a compute entry
};

/// Prices `accelerator` at `technology_node` (which beats the file's `technology_node`; both
/// absent: n16, with a warning, as is any node the model does not know).
[[nodiscard]] STREAM_API HardwareCostReport hardware_cost(const Accelerator& accelerator,
                                                          const std::optional<std::string>& technology_node = std::nullopt);

/// The report as the reference's JSON (its keys, in its order; raw doubles).
[[nodiscard]] STREAM_API std::string hardware_cost_json(const HardwareCostReport& report);

struct HardwareBudget {
  std::optional<double> max_area_mm2;
  std::optional<double> max_energy_pj_per_cycle;
  std::string label = "baseline";
};

/// Both limits at `report`'s figures times (1 + headroom), labelled "<bundle> x<1+headroom>".
[[nodiscard]] STREAM_API HardwareBudget budget_from(const HardwareCostReport& report, double headroom = 0.0);

struct STREAM_API BudgetVerdict {
  bool ok = true;
  std::vector<std::string> violations;
  [[nodiscard]] std::string str() const;  ///< "within budget", or the violations joined by "; "
};

/// A violation when the area or the peak access energy is strictly above its limit.
[[nodiscard]] STREAM_API BudgetVerdict check_budget(const HardwareCostReport& report, const HardwareBudget& budget);

}  // namespace stream::hardware
