#include "optimizer_report.hpp"

#include <cmath>

namespace stream::host {

namespace {

// The objective a whole run is judged by: pareto's best is its front point of least EDP
// (optimizer.hpp), so its figures are EDPs, as in optimize.yaml's `best` and `ratio`.
optimize::Objective judged_objective(optimize::Objective o) {
  return o == optimize::Objective::Pareto ? optimize::Objective::Edp : o;
}

report::OptimizerCandidate reported_candidate(const optimize::Evaluation& e) {
  report::OptimizerCandidate c;
  c.index = e.index;
  c.feasible = e.figures.has_value();
  if (e.figures) {
    c.latency = e.figures->latency;
    c.energy = e.figures->energy;
  }
  c.ranked = e.objective;
  c.accepted = e.accepted;
  return c;
}

}  // namespace

report::OptimizerReport optimizer_report(const optimize::OptimizeResult& r, const pipeline::RunResult& best) {
  report::OptimizerReport o;
  const auto judge = judged_objective(r.spec.objective);
  o.objective = optimize::name(r.spec.objective);
  const double automatic = optimize::objective_of(judge, r.automatic());
  if (std::isfinite(automatic)) o.automatic = automatic;
  o.best = optimize::objective_of(judge, optimize::Figures{best.total_latency, best.total_energy});
  o.budget = r.spec.evaluations;
  o.spent = r.spent();
  o.cut_short = r.cancelled;
  o.still_improving = r.still_improving();
  o.best_evaluation = r.best_evaluation;
  o.group_runs = r.group_runs;
  for (const auto& e : r.evaluations) o.candidates.push_back(reported_candidate(e));
  o.best_so_far = r.best_curve;
  for (std::size_t k = 0; k < r.front.size(); ++k)
    o.front.push_back({r.front[k].evaluation, r.front[k].figures.latency, r.front[k].figures.energy,
                       "front/point_" + std::to_string(k) + ".yaml"});
  return o;
}

}  // namespace stream::host
