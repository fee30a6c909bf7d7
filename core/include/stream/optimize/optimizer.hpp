// The mapping optimizer (`--mapping optimize`): the best mapping it finds of any workload on any
// accelerator, starting from the automatic mapping, so never worse than it.
//
// A candidate is, per compute node, its cores and inter-core split (mapping/node_choice.hpp: any
// non-empty subset of the cores its operator type allows, split over its free parallel dims,
// unevenly where a factor does not divide), and the set of compute nodes after which a fusion
// group is cut. The automatic mapping tiles each group around the chosen cores, and the memory
// fallback applies as on the automatic path, so every candidate is a complete mapping.
//
// The evaluator is the pipeline itself (tiling, cost table, schedule, allocation MILP). A run's
// figures are sums over its fusion groups and a group's figures depend on its own nodes and their
// choices only, so each group is run once per distinct (group, choices) and remembered: a
// candidate that moves one node runs one group, and per-core costs are shared by every run
// through RunEnv::cache. The best candidate is run again whole; that run's figures are the result.
//
// The search is simulated annealing from the automatic mapping (search.cpp says why), in batches
// of kBatch neighbours whose random choices depend only on the seed and the batch: the result is a
// function of (workload, accelerator, spec, seed, budget), whatever the number of threads.
// RunEnv::cancel stops it between batches, keeping the best found so far.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "stream/export.hpp"
#include "stream/mapping/node_choice.hpp"
#include "stream/optimize/optimize_spec.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::optimize {

/// Neighbours evaluated together; fixed, so that the search does not depend on the thread count.
inline constexpr std::size_t kBatch = 8;

struct Candidate {
  mapping::NodeChoices choices;  ///< every compute node's
  std::set<std::string> cuts;    ///< compute nodes ending a fusion group
  bool operator==(const Candidate&) const = default;
};

struct Figures {
  std::int64_t latency = 0;  ///< cycles
  double energy = 0;         ///< pJ; NaN for a candidate of a latency search (not computed: its MILPs solve the latency level only)
};

/// One evaluated candidate.
struct Evaluation {
  std::size_t index = 0;  ///< 0 is the automatic mapping
  std::string move;       ///< how it was made from the current candidate ("automatic" for 0)
  std::optional<Figures> figures;  ///< none when it failed
  std::string reason;              ///< why it failed
  double objective = 0;            ///< the ranked value (+inf when it failed)
  bool accepted = false;           ///< became the search's current candidate
};

/// A point of the latency-energy front (objective pareto) with its mapping file's contents.
struct FrontPoint {
  std::size_t evaluation = 0;
  Figures figures;
  mapping::Mapping mapping;
};

struct STREAM_API OptimizeResult {
  OptimizeSpec spec;
  std::vector<Evaluation> evaluations;  ///< in order; [0] is the automatic mapping
  /// (evaluations spent, best objective) at the start and whenever the best improved.
  std::vector<std::pair<std::size_t, double>> best_curve;
  bool cancelled = false;             ///< stopped by RunEnv::cancel before its budget
  std::size_t group_runs = 0;         ///< fusion groups the pipeline ran (the rest were remembered)
  std::optional<std::size_t> best_evaluation;  ///< none: the automatic mapping stayed best
  pipeline::RunResult best_run;       ///< the best candidate's run, whole (the automatic run's when none is better)
  pipeline::RunTimings best_timings;
  mapping::Mapping best_mapping;      ///< a mapping file that reruns to best_run's figures
  std::vector<FrontPoint> front;      ///< objective pareto: the front, by latency
  double wall_s = 0;
  /// The evaluations after the last improvement of the best, when fewer than a tenth of the
  /// budget: a larger budget would likely find better ("still improving").
  [[nodiscard]] bool still_improving() const;
  [[nodiscard]] std::size_t spent() const { return evaluations.size() - 1; }
  /// The automatic mapping's run's figures (evaluation 0); none when it has no feasible allocation.
  [[nodiscard]] std::optional<Figures> automatic() const {
    return evaluations.empty() ? std::nullopt : evaluations.front().figures;
  }
};

/// The candidate's objective value; +inf when `figures` is empty. Pareto ranks by latency here.
[[nodiscard]] STREAM_API double objective_of(Objective objective, const std::optional<Figures>& figures);

/// Runs the optimizer on a prepared workload (pipeline/run_spec.hpp: base.order says whether it is
/// in name order already). `base` supplies everything but the mapping (cost backends, limits,
/// ...); `env` the caches (one shared by every candidate when it has none), progress, cancellation.
/// When no candidate is feasible, best_run is the automatic mapping's run, unsolved, with its
/// diagnosis (as a run without the optimizer reports it).
[[nodiscard]] STREAM_API OptimizeResult optimize_mapping(const Workload& workload, const hardware::Accelerator& accelerator,
                                                         const OptimizeSpec& spec, pipeline::RunSpec base,
                                                         const pipeline::RunEnv& env = {});

/// optimize.yaml: the spec, the automatic and best figures, the budget spent (and whether it was
/// cut short), the best-so-far curve and every evaluated candidate.
[[nodiscard]] STREAM_API std::string optimize_yaml(const OptimizeResult& result);

/// Writes optimize.yaml, best_mapping.yaml and, for pareto, front/point_<k>.yaml into `dir`.
STREAM_API void write_optimize_files(const OptimizeResult& result, const std::filesystem::path& dir);

}  // namespace stream::optimize
