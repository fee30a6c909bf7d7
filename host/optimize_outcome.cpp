#include "optimize_outcome.hpp"

#include <stream/pipeline/metrics.hpp>
#include <stream/report/summary.hpp>

#include "optimizer_report.hpp"
#include "run_experiment.hpp"

namespace stream::host {

namespace {

// Null when the automatic mapping has no feasible allocation (its figures mean nothing then).
nlohmann::ordered_json optimizer_automatic_latency(const optimize::OptimizeResult& r) {
  return r.automatic() ? nlohmann::ordered_json(r.automatic()->latency) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json optimizer_automatic_energy(const optimize::OptimizeResult& r) {
  return r.automatic() ? nlohmann::ordered_json(r.automatic()->energy) : nlohmann::ordered_json(nullptr);
}

}  // namespace

nlohmann::ordered_json outcome_summary(const RunOutcome& outcome, const std::filesystem::path& dir) {
  const auto metrics = pipeline::run_metrics(outcome.result, outcome.accelerator);
  std::optional<report::OptimizerReport> optimizer;
  if (outcome.optimized) optimizer = optimizer_report(*outcome.optimized, outcome.result);
  auto summary = nlohmann::ordered_json::parse(report::summary_json(outcome.result, nullptr, &metrics, optimizer ? &*optimizer : nullptr));
  if (outcome.optimized) summary["optimizer"].update(optimizer_figures(*outcome.optimized, dir));
  return summary;
}

nlohmann::ordered_json optimizer_figures(const optimize::OptimizeResult& r, const std::filesystem::path& dir) {
  return {{"automatic_latency", optimizer_automatic_latency(r)},
          {"automatic_energy_pj", optimizer_automatic_energy(r)},
          {"best_mapping", (dir / "best_mapping.yaml").string()},
          {"optimize_file", (dir / "optimize.yaml").string()}};
}

nlohmann::ordered_json optimize_row_columns(const optimize::OptimizeResult& r) {
  return {{"automatic_latency", optimizer_automatic_latency(r)},
          {"automatic_energy_pj", optimizer_automatic_energy(r)},
          {"best_evaluation", r.best_evaluation ? nlohmann::ordered_json(*r.best_evaluation) : nlohmann::ordered_json(nullptr)},
          {"evaluations_spent", r.spent()},
          {"cut_short", r.cancelled}};
}

}  // namespace stream::host
