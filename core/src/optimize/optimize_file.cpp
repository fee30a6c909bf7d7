#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "stream/io/file_output.hpp"
#include "stream/io/utf8.hpp"
#include "stream/optimize/optimizer.hpp"

namespace stream::optimize {

namespace {

// Shortest text that reads back to the same double; `.inf` as YAML spells it.
std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  if (std::isnan(v)) return ".nan";
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// A JSON string is a YAML double-quoted scalar (moves and reasons hold node names and diagnoses).
std::string quoted(const std::string& text) { return io::dump_json(nlohmann::json(text), -1); }

void figures(std::ostream& out, const std::optional<Figures>& f, double objective) {
  if (f) out << "latency: " << f->latency << ", ";
  if (f && !std::isnan(f->energy)) out << "energy: " << number(f->energy) << ", ";  // a latency search's candidates: not computed
  out << "objective: " << number(objective);
}

void header(std::ostream& out, const OptimizeResult& r) {
  out << "optimize: {objective: " << name(r.spec.objective) << ", evaluations: " << r.spec.evaluations << ", seed: " << r.spec.seed
      << "}\n";
  out << "budget: {evaluations: " << r.spec.evaluations << ", spent: " << r.spent() << ", cut_short: "
      << (r.cancelled ? "true" : "false") << ", still_improving: " << (r.still_improving() ? "true" : "false") << "}\n";
  out << "automatic: {feasible: " << (r.automatic() ? "true" : "false") << ", ";
  figures(out, r.evaluations.front().figures, r.evaluations.front().objective);
  out << "}\n";
  const Figures best{r.best_run.total_latency, r.best_run.total_energy};
  const double objective = objective_of(r.spec.objective == Objective::Pareto ? Objective::Edp : r.spec.objective, best);
  out << "best: {evaluation: " << (r.best_evaluation ? std::to_string(*r.best_evaluation) : "null") << ", ";
  figures(out, best, objective);
  const double automatic = objective_of(r.spec.objective == Objective::Pareto ? Objective::Edp : r.spec.objective,
                                        r.automatic());
  out << ", ratio: " << (std::isfinite(automatic) ? number(objective / automatic) : ".nan") << "}\n";
  out << "group_runs: " << r.group_runs << "\n";
}

}  // namespace

std::string optimize_yaml(const OptimizeResult& r) {
  std::ostringstream out;
  out << "# The mapping optimizer's search (docs/optimize.md): objective values are cycles (latency), pJ (energy),\n"
         "# pJ x cycles (edp); pareto ranks candidates by latency and keeps the front; best is its least edp.\n";
  header(out, r);
  out << "best_so_far:\n";
  for (const auto& [spent, value] : r.best_curve) out << "  - [" << spent << ", " << number(value) << "]\n";
  if (!r.front.empty()) {
    out << "front:\n";
    for (std::size_t k = 0; k < r.front.size(); ++k)
      out << "  - {evaluation: " << r.front[k].evaluation << ", latency: " << r.front[k].figures.latency
          << ", energy: " << number(r.front[k].figures.energy) << ", mapping: front/point_" << k << ".yaml}\n";
  }
  out << "candidates:\n";
  for (const auto& e : r.evaluations) {
    out << "  - {index: " << e.index << ", move: " << quoted(e.move) << ", ";
    figures(out, e.figures, e.objective);
    out << ", accepted: " << (e.accepted ? "true" : "false");
    // A diagnosis's first line: the whole one is in the run of that mapping, and 2,000 of them would
    // bury the file.
    if (!e.reason.empty()) out << ", reason: " << quoted(e.reason.substr(0, std::min(e.reason.find('\n'), std::size_t{300})));
    out << "}\n";
  }
  return out.str();
}

void write_optimize_files(const OptimizeResult& r, const std::filesystem::path& dir) {
  io::write_file(dir / "optimize.yaml", optimize_yaml(r));
  mapping::write_mapping_file(r.best_mapping, dir / "best_mapping.yaml");
  for (std::size_t k = 0; k < r.front.size(); ++k) {
    std::filesystem::create_directories(dir / "front");
    mapping::write_mapping_file(r.front[k].mapping, dir / "front" / ("point_" + std::to_string(k) + ".yaml"));
  }
}

}  // namespace stream::optimize
