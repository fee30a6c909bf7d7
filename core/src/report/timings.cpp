#include "stream/report/timings.hpp"

#include "stream/yaml/yaml_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "stream/io/utf8.hpp"

namespace stream::report {

// Microseconds: finer digits are noise, and the reference's 10 ms rounding would hide the MILP's
// millisecond solves.
double rounded_seconds(double s) { return std::round(s * 1e6) / 1e6; }

// yaml-cpp prints doubles with 17 significant digits (0.091248999999999997); six decimals without
// trailing zeros read back as the same rounded value.
std::string seconds_text(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", rounded_seconds(s));
  std::string t(buf);
  while (t.back() == '0') t.pop_back();
  if (t.back() == '.') t.pop_back();
  return t;
}

namespace {

using Json = nlohmann::ordered_json;

std::string level_name(const allocate::Allocation& a, std::size_t i) {
  return i < a.level_names.size() ? a.level_names[i] : "level_" + std::to_string(i);
}

Json attempt_json(const pipeline::Attempt& at, const pipeline::AttemptClocks& c) {
  Json j;
  j["change"] = at.change.empty() ? "first mapping" : at.change;
  j["fill_fraction"] = at.fill_fraction;
  j["excluded_cores"] = at.excluded_cores;
  j["tile_cap_reached"] = at.tile_cap_reached;
  j["reused_allocation"] = at.reused;
  j["capacity_bound_proved_infeasible"] = at.capacity_proved;
  j["status"] = at.status;
  j["mapping_time_s"] = rounded_seconds(c.mapping_time_s);
  j["tiling_time_s"] = rounded_seconds(c.tiling_time_s);
  j["cost_table_time_s"] = rounded_seconds(c.cost_time_s);
  j["schedule_time_s"] = rounded_seconds(c.schedule_time_s);
  j["allocation_time_s"] = rounded_seconds(c.solve_time_s);
  j["milp_solves"] = Json::array();
  for (const auto& m : c.milp)
    j["milp_solves"].push_back({{"objective", m.what}, {"solve_time_s", rounded_seconds(m.solve_time_s)}, {"status", m.status}});
  return j;
}

Json attempts_json(const pipeline::GroupClocks& g) {
  Json a = Json::array();
  for (std::size_t i = 0; i < g.attempts.size() && i < g.clocks.size(); ++i) a.push_back(attempt_json(g.attempts[i], g.clocks[i]));
  return a;
}

// A run of a group outside the run's groups, with its clock and attempts (a fused group the
// memory fallback cut: `fields` names it; a layout pass's run: likewise).
Json group_run_json(Json fields, const pipeline::GroupClocks& g) {
  fields["wall_time_s"] = rounded_seconds(g.wall_time_s);
  fields["attempts"] = attempts_json(g);
  return fields;
}

struct Phases {
  double mapping = 0, tiling = 0, costs = 0, schedule = 0, allocation = 0, results = 0, milp = 0;
  std::size_t solves = 0;
  void add(const pipeline::GroupClocks& g) {
    for (const auto& c : g.clocks) {
      mapping += c.mapping_time_s;
      tiling += c.tiling_time_s;
      costs += c.cost_time_s;
      schedule += c.schedule_time_s;
      allocation += c.solve_time_s;
      for (const auto& m : c.milp) milp += m.solve_time_s;
      solves += c.milp.size();
    }
    results += g.results_time_s;
  }
};

Json phases_json(const pipeline::RunResult& r, const pipeline::RunTimings& t) {
  Phases p;
  for (const auto& g : t.groups) p.add(g);
  for (const auto& c : t.cut_groups) p.add(c.run);
  for (const auto& s : t.superseded_runs) p.add(s.run);
  Json j;
  j["grouping_time_s"] = rounded_seconds(t.grouping_time_s);
  j["mapping_time_s"] = rounded_seconds(p.mapping);
  j["tiling_time_s"] = rounded_seconds(p.tiling);
  j["cost_table_time_s"] = rounded_seconds(p.costs);
  j["schedule_time_s"] = rounded_seconds(p.schedule);
  j["allocation_time_s"] = rounded_seconds(p.allocation);
  j["results_time_s"] = rounded_seconds(p.results);
  j["layout_choice_time_s"] = rounded_seconds(t.layout_choice_time_s);
  j["accounted_time_s"] = rounded_seconds(t.grouping_time_s + p.mapping + p.tiling + p.costs + p.schedule + p.allocation + p.results +
                                          t.layout_choice_time_s);
  j["milp_solves"] = p.solves;
  j["milp_solve_time_s"] = rounded_seconds(p.milp);
  j["reused_allocations"] = r.reused_allocations;
  return j;
}

Json timings(const pipeline::RunResult& r, const pipeline::RunTimings& t) {
  Json j;
  j["total_wall_time_s"] = rounded_seconds(t.wall_time_s);
  j["phases"] = phases_json(r, t);
  Json groups = Json::object();
  for (std::size_t k = 0; k < r.groups.size() && k < t.groups.size(); ++k) {
    const auto& a = r.groups[k].allocation;
    const auto& c = t.groups[k];
    Json gj;
    gj["wall_time_s"] = rounded_seconds(c.wall_time_s);
    gj["cost_table_time_s"] = rounded_seconds(c.cost_time_s);
    gj["solve_time_s"] = rounded_seconds(c.allocation.levels_s());
    gj["objectives"] = Json::array();
    for (std::size_t i = 0; i < a.level_status.size(); ++i)  // each solved level
      gj["objectives"].push_back(
          {{"level", level_name(a, i)}, {"solve_time_s", rounded_seconds(c.allocation.level_s(level_name(a, i)))}});
    gj["attempts"] = attempts_json(c);
    groups["group_" + std::to_string(r.groups[k].index)] = gj;
  }
  j["groups"] = groups;
  Json cut = Json::array();
  for (const auto& c : t.cut_groups) cut.push_back(group_run_json({{"split_from", c.split_from}, {"compute_nodes", c.compute_nodes}}, c.run));
  j["cut_groups"] = cut;
  Json runs = Json::array(), checks = Json::array();
  for (const auto& s : t.superseded_runs)
    (s.pass == pipeline::kPerLayerCheck ? checks : runs).push_back(group_run_json({{"pass", s.pass}, {"name", s.name}}, s.run));
  if (r.layout.mode == layout::LayoutMode::Choose) j["layout_passes"] = runs;
  if (!checks.empty()) j["per_layer_checks"] = checks;  // `stream run`'s hint (RunSpec::per_layer_check)
  return j;
}

bool scalar(const Json& j) { return !j.is_object() && !j.is_array(); }

// The JSON document as YAML: seconds as seconds_text, maps of scalars in flow style.
void emit(yamlx::YamlText& out, const Json& j) {
  if (j.is_object()) {
    const bool flow = !j.empty() && std::all_of(j.begin(), j.end(), [](const Json& v) { return scalar(v); });
    if (flow) out << YAML::Flow;
    out << YAML::BeginMap;
    for (auto it = j.begin(); it != j.end(); ++it) {
      out << YAML::Key << it.key() << YAML::Value;
      emit(out, it.value());
    }
    out << YAML::EndMap;
  } else if (j.is_array()) {
    if (std::all_of(j.begin(), j.end(), [](const Json& v) { return scalar(v); })) out << YAML::Flow;
    out << YAML::BeginSeq;
    for (const auto& v : j) emit(out, v);
    out << YAML::EndSeq;
  } else if (j.is_number_float()) {
    out << seconds_text(j.get<double>());
  } else if (j.is_number()) {
    out << j.get<long long>();
  } else if (j.is_boolean()) {
    out << j.get<bool>();
  } else {
    out << j.get<std::string>();
  }
}

}  // namespace

std::string timings_yaml(const pipeline::RunResult& r, const pipeline::RunTimings& t) {
  yamlx::YamlText out;
  emit(out, timings(r, t));
  return std::string(out.c_str()) + "\n";
}

std::string timings_json(const pipeline::RunResult& r, const pipeline::RunTimings& t) {
  return io::dump_json(timings(r, t), 2) + "\n";
}

}  // namespace stream::report
