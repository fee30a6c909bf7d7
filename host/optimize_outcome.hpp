// The mapping optimizer's outcome (optimize/optimizer.hpp) as the front ends report it beside the
// best run's figures. Python's Result.optimizer and MCP's `optimizer` are summary.json's
// `optimizer` block (report/optimizer_report.hpp: objective values, budget, flags) plus what that
// block leaves to other files: the automatic mapping's latency and energy, and where the best
// mapping and optimize.yaml are. A sweep row holds the flat columns of it.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>
#include <stream/optimize/optimizer.hpp>

namespace stream::host {

struct RunOutcome;

/// summary.json of the run as a value (report::summary_json with the run's metrics) and, for a
/// `--mapping optimize` run, its `optimizer` block with optimizer_figures added (paths under `dir`).
[[nodiscard]] nlohmann::ordered_json outcome_summary(const RunOutcome& outcome, const std::filesystem::path& dir);

/// {automatic_latency, automatic_energy_pj (both null when the automatic mapping is infeasible),
/// best_mapping, optimize_file (their paths under `dir`)}.
[[nodiscard]] nlohmann::ordered_json optimizer_figures(const optimize::OptimizeResult& result, const std::filesystem::path& dir);

/// The sweep row's columns (flat, as results.csv holds them): automatic_latency,
/// automatic_energy_pj (null when the automatic mapping is infeasible), best_evaluation (null: the
/// automatic mapping stayed best), evaluations_spent, cut_short.
[[nodiscard]] nlohmann::ordered_json optimize_row_columns(const optimize::OptimizeResult& result);

}  // namespace stream::host
