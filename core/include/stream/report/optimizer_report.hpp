// What summary.* and report.html show of the mapping optimizer (`stream run --mapping optimize`):
// a plain copy of its figures, which the host fills from optimize::OptimizeResult
// (host/optimizer_report.cpp), so that the result files do not depend on the optimizer's area
// (docs/architecture.md: report may not include optimize, which runs the pipeline report reads).
//
// Two kinds of value: an objective value (what `objective` names; EDP for pareto, whose best is
// the front point of least EDP) in the summary's table, and the value the search ranks candidates
// by (the same, but latency for pareto) in the search's plot, as optimize.yaml has them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stream::report {

/// One evaluated candidate mapping.
struct OptimizerCandidate {
  std::size_t index = 0;  ///< 0: the automatic mapping
  bool feasible = false;  ///< false: its run failed, and it has no figures
  std::int64_t latency = 0;  ///< cycles
  double energy = 0;         ///< pJ
  double ranked = 0;         ///< the value the search ranked it by
  bool accepted = false;     ///< it became the search's current candidate
};

/// A point of the latency-energy front (objective pareto), with its mapping file.
struct OptimizerFrontPoint {
  std::size_t evaluation = 0;
  std::int64_t latency = 0;
  double energy = 0;
  std::string mapping_file;  ///< relative to the result directory
};

struct OptimizerReport {
  std::string objective;            ///< latency, energy, edp or pareto
  std::optional<double> automatic;  ///< the automatic mapping's objective value; none when it failed
  double best = 0;                  ///< the best mapping's (the run the result files describe)
  std::size_t budget = 0;           ///< evaluations asked for
  std::size_t spent = 0;            ///< evaluations made (the automatic mapping's not counted)
  bool cut_short = false;           ///< interrupted before its budget was spent
  bool still_improving = false;     ///< the best improved in the last tenth of the budget
  std::optional<std::size_t> best_evaluation;  ///< none: the automatic mapping stayed best
  std::size_t group_runs = 0;       ///< fusion groups the pipeline ran (the others were remembered)
  std::vector<OptimizerCandidate> candidates;  ///< in evaluation order, [0] the automatic mapping
  /// (evaluations spent, best ranked value) at the start and at every improvement.
  std::vector<std::pair<std::size_t, double>> best_so_far;
  std::vector<OptimizerFrontPoint> front;  ///< pareto only, by latency

  /// best / automatic; none when the automatic mapping failed or its value is 0.
  [[nodiscard]] std::optional<double> ratio() const {
    if (!automatic || *automatic == 0) return std::nullopt;
    return best / *automatic;
  }
  /// What an objective value is counted in.
  [[nodiscard]] std::string unit() const {
    return objective == "energy" ? "pJ" : objective == "latency" ? "cycles" : "pJ x cycles";
  }
  /// What the ranked value is counted in (pareto ranks by latency).
  [[nodiscard]] std::string ranked_unit() const { return objective == "pareto" ? "cycles" : unit(); }
};

}  // namespace stream::report
