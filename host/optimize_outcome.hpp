// The mapping optimizer's outcome (optimize/optimizer.hpp) as the front ends report it beside the
// best run's figures: a sweep row's columns, Python's Result.optimizer and MCP's `optimizer`
// object. One description, so that the three say the same thing under the same names: the
// automatic mapping's figures and the best's, which evaluation was best, the budget spent and
// whether it was cut short. The figures of the best run itself are the result's usual ones.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>
#include <stream/optimize/optimizer.hpp>

namespace stream::host {

/// `best` is the best run (RunOutcome::result: run_or_search moves it out of `result`).
/// {objective, evaluations (budget), evaluations_spent, cut_short, still_improving, best_evaluation
/// (null: the automatic mapping stayed best), group_runs, wall_s, automatic {feasible, latency,
/// energy_pj, edp}, best {latency, energy_pj, edp}, front_points (pareto only), and, when `dir`
/// is given, best_mapping and optimize_file (their paths in it)}.
[[nodiscard]] nlohmann::ordered_json optimize_outcome_json(const optimize::OptimizeResult& result,
                                                           const pipeline::RunResult& best,
                                                           const std::filesystem::path& dir = {});

/// The sweep row's columns of it (flat, as results.csv holds them): automatic_latency,
/// automatic_energy_pj (null when the automatic mapping is infeasible), best_evaluation,
/// evaluations_spent, cut_short.
[[nodiscard]] nlohmann::ordered_json optimize_row_columns(const optimize::OptimizeResult& result);

}  // namespace stream::host
