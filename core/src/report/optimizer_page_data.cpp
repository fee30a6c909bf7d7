#include "optimizer_page_data.hpp"

#include <cmath>

namespace stream::report::detail {

namespace {

using json = nlohmann::ordered_json;

// A failed candidate's ranked value is +inf, which JSON cannot hold: null, drawn at the top edge.
json optimizer_finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json optimizer_candidate_rows(const OptimizerReport& o) {
  json rows = json::array();
  for (const auto& c : o.candidates) {
    if (c.feasible)
      rows.push_back({c.index, optimizer_finite_or_null(c.ranked), c.accepted, c.latency, c.energy});
    else
      rows.push_back({c.index, nullptr, c.accepted, nullptr, nullptr});
  }
  return rows;
}

}  // namespace

json optimizer_page_data(const OptimizerReport& o) {
  json curve = json::array();
  for (const auto& [spent, value] : o.best_so_far) curve.push_back({spent, optimizer_finite_or_null(value)});
  json front = json::array();
  for (const auto& p : o.front)
    front.push_back({{"evaluation", p.evaluation}, {"latency", p.latency}, {"energy", p.energy}, {"mapping", p.mapping_file}});
  const bool automatic_ran = !o.candidates.empty() && o.candidates.front().feasible;
  return {{"objective", o.objective},
          {"unit", o.unit()},
          {"ranked_unit", o.ranked_unit()},
          {"budget", o.budget},
          {"automatic_ranked", automatic_ran ? optimizer_finite_or_null(o.candidates.front().ranked) : json(nullptr)},
          {"best_evaluation", o.best_evaluation ? json(*o.best_evaluation) : json(nullptr)},
          {"candidates", optimizer_candidate_rows(o)},
          {"best_so_far", curve},
          {"front", front}};
}

}  // namespace stream::report::detail
