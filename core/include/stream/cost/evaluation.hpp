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
#include <optional>
#include <stdexcept>
#include <vector>

#include "stream/cost/core_model.hpp"
#include "stream/cost/layer.hpp"
#include "stream/cost/loop_factors.hpp"
#include "stream/cost/memory_allocator.hpp"
#include "stream/cost/small_vec.hpp"
#include "stream/cost/spatial_mapping.hpp"
#include "stream/export.hpp"

namespace stream::cost {

/// A failure ZigZag raises while costing (it aborts the whole estimate: Stream falls back).
class STREAM_API ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Movement {
  double amount = 0, period = 0, count = 0, bw_avg = 0, prec = 0, window = 0;
};

/// One (operand, level, direction) transfer on a physical port (stall/slack combination).
struct PortActivity {
  double period = 0, allowed = 0, count = 0, ss = 0, muw = 0;
};

/// Number of integer slots t in [x, y) with t mod period_i < allowed_i for some activity i;
/// `acts` sorted by period, largest first (the union of memory-updating windows).
STREAM_API double window_union_slots(const PortActivity* acts, std::size_t n, double x, double y);

struct MappingCost {
  double energy_total = 0, mac_energy = 0, mem_energy = 0;
  double latency_total0 = 0, latency_total1 = 0, latency_total2 = 0;
  double stall_slack_comb = 0, onloading = 0, offloading = 0;
  double ideal_cycle = 0, ideal_temporal_cycle = 0;
  /// Per layer operand, per memory level: word accesses per direction and energy.
  std::vector<std::vector<std::array<double, kNumDirs>>> accesses;
  std::vector<std::vector<double>> mem_energy_breakdown;
};

class STREAM_API Evaluator {
 public:
  Evaluator(const Layer& layer, const CoreModel& core, const std::vector<int>& memop_of_op,
            const std::vector<OperandSpatial>& frac, const std::vector<OperandSpatial>& integer, int cycles_per_op);

  /// Costs `ordering` allocated as `alloc`. With `detail`, fills the per-level breakdowns.
  void evaluate(const std::vector<TemporalLoop>& ordering, const Allocation& alloc, MappingCost& out, bool detail);

  /// Per core memory (CoreModel::mems order), the bits one instance holds under the last
  /// evaluation's mapping: the tile of every operand stored there (ZigZag's data_bit_per_level).
  void memory_bits(std::vector<double>& out) const;

  /// The stationarity-merged temporal mapping of the last evaluation, per operand and level.
  [[nodiscard]] std::vector<std::vector<std::vector<TemporalLoop>>> stationary() const;

 private:
  static constexpr std::size_t kOps = 3;    // O, I1, I2: the only layout that reaches the model
  static constexpr std::size_t kLev = 14;   // memory levels per operand
  static constexpr std::size_t kArch = kLev + 3;
  static constexpr std::size_t kDims = 64;
  static constexpr std::size_t kServes = 12;  // (memory operand, direction) pairs of one port
  template <class T>
  using PerOp = SmallVec<T, kOps>;
  using ArchD = SmallVec<double, kArch>;
  struct Version {  // per operand, per spatial-mapping version
    ArchD deu, dbu, edb, prec, caal;
    SmallVec<char, kArch> psum;
    SmallVec<std::array<Movement, kNumDirs>, kLev> mv;  // per memory level
  };
  // The cost model's innermost steps: forced inline, as the loop bodies they were.
  [[gnu::always_inline]] inline void accumulate(const int* cls, int dim, double size, double& R, double& IR, char* flag);
  [[gnu::always_inline]] inline void reset_pr_products();
  [[gnu::always_inline]] inline void level_products(std::size_t op, const OperandSpatial& spatial);
  [[gnu::always_inline]] inline void output_flags(Version& V, std::size_t nn);
  void sizes_for(int op, int v);
  void movement_for(int op, int v);

  const Layer& layer_;
  const CoreModel& core_;
  PerOp<int> memop_of_op_;
  SmallVec<int, kNumMemOps> op_of_memop_;
  const std::vector<OperandSpatial>* sm_[2];
  int cpo_ = 1;
  double o_size_elem_ = 0;
  PerOp<int> n_;  // levels per operand
  // The stationarity merge only moves level boundaries: level m of operand op is
  // ordering[bnd_[op][m] .. bnd_[op][m+1]).
  const TemporalLoop* ord_ = nullptr;
  PerOp<SmallVec<int, kArch>> bnd_;
  PerOp<char> same_;  // fractional and integer spatial loops are identical
  PerOp<SmallVec<std::array<const CorePort*, kNumDirs>, kLev>> ports_;
  PerOp<double> macst_;
  PerOp<ArchD> cabl_, top_r_, top_ir_;
  std::array<std::array<Version, 2>, kOps> ver_;  // sized per operand in the constructor
  SmallVec<double, kDims> run_;
  SmallVec<double, kDims> prev_r_, prev_ir_;
  ArchD r1_, ir1_, r2_;
  SmallVec<char, kArch> irflag_;
  PerOp<SmallVec<double, kLev>> us_, ues_, ue_;
  PerOp<SmallVec<char, kArch>> db_;
  struct Record {
    double value = 0;
    bool shared = false;
    bool present = false;
  };
  PerOp<SmallVec<std::array<Record, kNumDirs>, kLev>> rec_;
  using Activity = PortActivity;
  SmallVec<Activity, kServes> acts_;
  SmallVec<double, kServes> l1_tot_, l1_min_;
  SmallVec<int, kServes> order_;
  SmallVec<PortServe, kServes> l1_serves_;

  // The steps of evaluate(), one per cost-model-spec section (3.1 .. 3.10).
  void merge_temporal_levels(const Allocation& alloc);
  void compute_versions();
  void word_accesses_and_energy(MappingCost& out, bool detail);
  void double_buffer_flags();
  [[nodiscard]] double stall_slack();
  [[nodiscard]] std::optional<double> port_stall_slack(const CorePort& p);
  void data_loading_records(double total_cycle, double ssc);
  [[nodiscard]] double onloading() const;
  [[nodiscard]] double offloading() const;
  /// The spatial-mapping version latency uses for an operand (the integer one where it differs).
  [[nodiscard]] std::size_t latency_version(std::size_t op) const { return same_[op] ? 0 : 1; }
  [[nodiscard]] double allowed_cycles(std::size_t op, std::size_t m, int d, const Movement& mv) const;
  [[nodiscard]] static double real_cycles(const Movement& mv, const CorePort* p);
  [[nodiscard]] const Record& loading_record(std::size_t op, std::size_t m, int d) const;
};

/// ZigZag's reduce_balanced: spreads `surplus` over the largest entries of `c` down to `m`.
/// `order` is scratch space for k indices.
STREAM_API void reduce_balanced(double* c, const double* m, std::size_t k, double surplus, int* order);
inline void reduce_balanced(std::vector<double>& c, const std::vector<double>& m, double surplus, std::vector<int>& order) {
  order.resize(c.size());
  reduce_balanced(c.data(), m.data(), c.size(), surplus, order.data());
}

}  // namespace stream::cost
