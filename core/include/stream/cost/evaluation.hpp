// The cost of one complete mapping (spatial + temporal): ZigZag's CostModelEvaluation.
//
// Given the allocator's per-operand memory levels of a loop ordering, this computes the
// stationarity merge, data sizes per architecture level, the data movement per (operand, memory
// level, direction), word accesses and energy (fractional spatial mapping), double-buffer flags,
// per-port stall/slack, on- and off-loading (integer spatial mapping) and the latency figures.
// Evaluator keeps its working arrays between calls so that costing an ordering does not allocate
// once warmed up.
#pragma once

#include <array>
#include <stdexcept>
#include <vector>

#include "stream/cost/core_model.hpp"
#include "stream/cost/layer.hpp"
#include "stream/cost/loop_factors.hpp"
#include "stream/cost/memory_allocator.hpp"
#include "stream/cost/spatial_mapping.hpp"

namespace stream::cost {

/// A failure ZigZag raises while costing (it aborts the whole estimate: Stream falls back).
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Movement {
  double amount = 0, period = 0, count = 0, bw_avg = 0, prec = 0, window = 0;
};

struct MappingCost {
  double energy_total = 0, mac_energy = 0, mem_energy = 0;
  double latency_total0 = 0, latency_total1 = 0, latency_total2 = 0;
  double stall_slack_comb = 0, onloading = 0, offloading = 0;
  double ideal_cycle = 0, ideal_temporal_cycle = 0;
  /// Per layer operand, per memory level: word accesses per direction and energy.
  std::vector<std::vector<std::array<double, kNumDirs>>> accesses;
  std::vector<std::vector<double>> mem_energy_breakdown;
};

class Evaluator {
 public:
  Evaluator(const Layer& layer, const CoreModel& core, const std::vector<int>& memop_of_op,
            const std::vector<OperandSpatial>& frac, const std::vector<OperandSpatial>& integer, int cycles_per_op);

  /// Costs `ordering` allocated as `alloc`. With `detail`, fills the per-level breakdowns.
  void evaluate(const std::vector<TemporalLoop>& ordering, const Allocation& alloc, MappingCost& out, bool detail);

  /// The stationarity-merged temporal mapping of the last evaluation, per operand and level.
  [[nodiscard]] const std::vector<std::vector<std::vector<TemporalLoop>>>& stationary() const { return tms_; }

 private:
  struct Version {  // per operand, per spatial-mapping version
    std::vector<double> deu, dbu, edb, prec, caal;
    std::vector<char> psum;
    std::vector<std::array<Movement, kNumDirs>> mv;  // per memory level
  };
  void sizes_for(int op, int v);
  void movement_for(int op, int v);

  const Layer& layer_;
  const CoreModel& core_;
  std::vector<int> memop_of_op_;
  std::vector<int> op_of_memop_;
  const std::vector<OperandSpatial>* sm_[2];
  bool same_versions_ = false;
  int cpo_ = 1;
  double o_size_elem_ = 0;
  std::vector<int> n_;  // levels per operand
  // Workspace
  std::vector<std::vector<std::vector<TemporalLoop>>> tms_;
  std::vector<double> macst_;
  std::vector<std::vector<double>> cabl_, top_r_, top_ir_;
  std::vector<std::array<Version, 2>> ver_;
  std::vector<double> run_, prev_r_, prev_ir_, r1_, ir1_, r2_;
  std::vector<char> irflag_;
  std::vector<std::vector<double>> us_, ues_, ue_;
  std::vector<std::vector<char>> db_;
  struct Record {
    double value = 0;
    bool shared = false;
    bool present = false;
  };
  std::vector<std::vector<std::array<Record, kNumDirs>>> rec_;
  struct Activity {
    double period, allowed, count, ss, muw;
  };
  std::vector<Activity> acts_;
  std::vector<double> l1_tot_, l1_min_;
  std::vector<int> l1_idx_, order_;
  std::vector<PortServe> l1_serves_;
  std::vector<char> mark_;
};

/// ZigZag's reduce_balanced: spreads `surplus` over the largest entries of `c` down to `m`.
void reduce_balanced(std::vector<double>& c, const std::vector<double>& m, double surplus, std::vector<int>& order);

}  // namespace stream::cost
