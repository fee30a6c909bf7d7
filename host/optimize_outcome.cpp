#include "optimize_outcome.hpp"

namespace stream::host {

namespace {

// The automatic mapping's figures: null figures when it has no feasible allocation (its objective
// is then +inf, which JSON cannot hold).
nlohmann::ordered_json optimizer_automatic_json(const optimize::OptimizeResult& r) {
  if (!r.automatic_solved) return {{"feasible", false}, {"latency", nullptr}, {"energy_pj", nullptr}, {"edp", nullptr}};
  return {{"feasible", true},
          {"latency", r.automatic.latency},
          {"energy_pj", r.automatic.energy},
          {"edp", static_cast<double>(r.automatic.latency) * r.automatic.energy}};
}

nlohmann::ordered_json optimizer_best_evaluation(const optimize::OptimizeResult& r) {
  return r.best_evaluation ? nlohmann::ordered_json(*r.best_evaluation) : nlohmann::ordered_json(nullptr);
}

}  // namespace

nlohmann::ordered_json optimize_outcome_json(const optimize::OptimizeResult& r, const pipeline::RunResult& best, const std::filesystem::path& dir) {
  nlohmann::ordered_json j{{"objective", optimize::name(r.spec.objective)},
         {"evaluations", r.spec.evaluations},
         {"evaluations_spent", r.spent()},
         {"cut_short", r.cancelled},
         {"still_improving", r.still_improving()},
         {"best_evaluation", optimizer_best_evaluation(r)},
         {"group_runs", r.group_runs},
         {"wall_s", r.wall_s},
         {"automatic", optimizer_automatic_json(r)},
         {"best",
          {{"latency", best.total_latency}, {"energy_pj", best.total_energy}, {"edp", best.edp}}}};
  if (r.spec.objective == optimize::Objective::Pareto) j["front_points"] = r.front.size();
  if (!dir.empty()) {
    j["best_mapping"] = (dir / "best_mapping.yaml").string();
    j["optimize_file"] = (dir / "optimize.yaml").string();
  }
  return j;
}

nlohmann::ordered_json optimize_row_columns(const optimize::OptimizeResult& r) {
  const nlohmann::ordered_json automatic = optimizer_automatic_json(r);
  return {{"automatic_latency", automatic["latency"]},
          {"automatic_energy_pj", automatic["energy_pj"]},
          {"best_evaluation", optimizer_best_evaluation(r)},
          {"evaluations_spent", r.spent()},
          {"cut_short", r.cancelled}};
}

}  // namespace stream::host
