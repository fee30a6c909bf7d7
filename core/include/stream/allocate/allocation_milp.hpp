// The allocation MILP of one steady-state schedule (spec §4.8; the reference calls it TETRA).
//
// Decides tensor placement (when a tensor has several candidate core groups), the routing plan of
// every transfer, and how long each tensor stays on chip (its reuse stop level over the temporal
// loops), subject to one-hot choices, path coherence, link contention per slot, memory capacity,
// forced/compatible reuse, slot latencies (compute: active LUT latency; transfers: plan latency
// divided by the reuse factor) and the overlap between consecutive iterations (the least idle
// time of any resource). total = I x sum(L_s) - (I-1) x overlap. Objectives, in priority order:
// total latency, off-chip traffic, buffering. build_model() only builds; solve() also runs the
// lexicographic solve and reads the result back, or explains an infeasible model (and, when asked,
// returns it as MPS text for report/ to write). Which optional families are built, and the pipelining model of the overlap, come from
// a ConstraintSelection (constraint_selection.hpp). On aie2 hardware (any connected core of
// namespace aie2, aie-and-defaults §2.14) the object-FIFO depth, buffer-descriptor and DMA-channel
// caps bind and a memory tile keeps a tensor exactly as long as its compute-side copy (§2.15-§2.18);
// the largest per-core DMA channel counts join the first objective on every accelerator (§2.17).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream/allocate/constraint_selection.hpp"
#include "stream/allocate/linear_model.hpp"
#include "stream/allocate/solve_clocks.hpp"
#include "stream/allocate/solver.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::allocate {

/// How an infeasible model is explained: every constraint family tried alone and every core's
/// capacity row (Full), or only memory capacity and the rows of specialised cores (cores listing
/// operator_types; the cheap check the pipeline's memory fallback needs between attempts).
enum class Diagnosis { Full, Memory };

struct AllocateOptions {
  SolveOptions solve;
  ConstraintSelection constraints;
  bool double_buffering = true;
  /// Columns whose memory cores exist for the aie2 memory-tile rule (as the steady state's staging).
  int nb_cols_to_use = schedule::kDefaultNbColsToUse;
  /// Keep an infeasible model as MPS text (Allocation::mps); off by default, as the text is as
  /// large as the model and only a run's final answer is written out.
  bool mps_on_failure = false;
  /// Solve the first level (total latency) only: the latency is the lexicographic solve's, the
  /// other choices (traffic, buffering: the energy) are not. The mapping optimizer's latency search
  /// (optimize/), which runs its best again whole.
  bool latency_level_only = false;
  Diagnosis diagnosis = Diagnosis::Full;
};

/// Per tensor, its reuse levels: stop level sigma in {-1 .. m-1} over the applicable loops.
struct ReuseLevels {
  std::vector<std::int64_t> sizes;  ///< applicable temporal loop sizes, innermost first
  std::vector<bool> relevant;       ///< VARYING
  std::vector<std::int64_t> reuse;  ///< R[sigma+1]
  std::vector<std::int64_t> tiles;  ///< TN[sigma+1]
  /// BD[sigma+1]: buffer descriptors a memory tile needs at sigma, the product of the irrelevant
  /// loop sizes since the last relevant loop up to sigma (1 at sigma = -1 and at a relevant loop).
  std::vector<std::int64_t> descriptors;
};

[[nodiscard]] STREAM_API ReuseLevels reuse_levels(const schedule::SsTensor& tensor, bool double_buffering);

struct AllocationMilp {
  LinearModel model;
  std::vector<ObjectiveLevel> levels;
  std::vector<ReuseLevels> reuse;                 ///< per tensor
  std::vector<std::vector<Var>> z;                ///< per tensor, per stop level
  std::vector<std::vector<LinExpr>> x;            ///< per tensor, per placement option (constant if fixed)
  std::vector<std::vector<LinExpr>> y;            ///< per node, per plan (transfers only)
  std::vector<Var> slot_latency;                  ///< L_s
  Var overlap, total;
  Var max_dma_in, max_dma_out;                    ///< index -1 without the dma_channels family
  bool aie2 = false;                              ///< the aie2 strategy applies (§2.14)
  std::vector<std::string> skipped_families;      ///< families the selection switched off
  std::vector<std::string> constant_violations;   ///< rows that are false before solving
};

[[nodiscard]] STREAM_API AllocationMilp build_model(const schedule::SteadyState& ss, const hardware::Accelerator& accelerator,
                                                    const AllocateOptions& options = {});

struct ModelSize {
  std::size_t variables = 0, binaries = 0, integers = 0, continuous = 0, constraints = 0, nonzeros = 0;
};

struct Allocation {
  SolveStatus status = SolveStatus::Error;
  std::int64_t total_latency = 0;
  std::int64_t overlap = 0;
  std::int64_t latency_per_iteration = 0;
  std::int64_t iterations = 1;
  std::int64_t max_dma_in = 0, max_dma_out = 0;  ///< largest per-core DMA channel counts (§2.17)
  std::vector<std::int64_t> slot_latency;
  std::vector<int> plan;       ///< per node: chosen plan (transfers) or -1
  std::vector<int> placement;  ///< per tensor: chosen placement option
  std::vector<int> reuse_stop; ///< per tensor: sigma
  std::vector<std::int64_t> reuse_factor;  ///< per tensor: R at sigma
  std::vector<std::int64_t> tiles_on_chip; ///< per tensor: TN at sigma
  /// Per transfer node: its contribution to its slot (A / R); 0 for other nodes.
  std::vector<double> transfer_contribution;
  ModelSize size;
  std::vector<std::string> level_names;
  std::vector<double> level_objectives;
  std::vector<double> level_bounds;  ///< the solver's best bound per solved level (MIP gap)
  std::vector<std::string> level_status;  ///< one per solved level
  long long nodes_explored = 0, simplex_iterations = 0;
  std::string infeasibility;  ///< the diagnosis when not solved
  /// When not solved: constraint families whose removal alone makes the model feasible, and the
  /// cores whose memory capacity alone does (the pipeline's memory fallback moves work off them;
  /// with Diagnosis::Memory only specialised cores are tried).
  std::vector<std::string> culprit_families;
  std::vector<int> blocking_cores;
  /// Infeasible by the capacity bound (the fixed tensors' smallest loads exceed a core): the
  /// allocation was not solved (only, for blocking_cores, each core's capacity row relaxed).
  bool capacity_proved = false;
  std::string mps;  ///< the model as MPS text when not solved and AllocateOptions::mps_on_failure

  /// Has a solution (optimal, or time-limited with one): the solution's figures are read back
  /// only then, so an unsolved allocation has no slot latencies.
  [[nodiscard]] bool solved() const { return !slot_latency.empty(); }
};

/// The allocation (a value: no clock in it). `clocks`, when given, gets every MILP solve's seconds
/// and status, each named after its level or kDiagnosisSolve.
[[nodiscard]] STREAM_API Allocation solve(const schedule::SteadyState& ss, const hardware::Accelerator& accelerator,
                                          const MilpSolver& solver, const AllocateOptions& options = {},
                                          SolveClocks* clocks = nullptr);

}  // namespace stream::allocate
