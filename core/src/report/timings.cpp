#include "stream/report/timings.hpp"

#include "stream/report/yaml_text.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

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

std::string level_name(const allocate::Allocation& a, std::size_t i) {
  return i < a.level_names.size() ? a.level_names[i] : "level_" + std::to_string(i);
}

}  // namespace

std::string timings_yaml(const pipeline::RunResult& r) {
  report::YamlText out;
  out << YAML::BeginMap;
  out << YAML::Key << "total_wall_time_s" << YAML::Value << seconds_text(r.wall_time_s);
  out << YAML::Key << "groups" << YAML::Value << YAML::BeginMap;
  for (const auto& g : r.groups) {
    const auto& a = g.allocation;
    out << YAML::Key << ("group_" + std::to_string(g.index)) << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "wall_time_s" << YAML::Value << seconds_text(g.wall_time_s);
    out << YAML::Key << "cost_table_time_s" << YAML::Value << seconds_text(g.cost_time_s);
    out << YAML::Key << "solve_time_s" << YAML::Value << seconds_text(a.solve_time_s);
    out << YAML::Key << "objectives" << YAML::Value << YAML::BeginSeq;
    for (std::size_t i = 0; i < a.level_times_s.size(); ++i)
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "level" << YAML::Value << level_name(a, i) << YAML::Key
          << "solve_time_s" << YAML::Value << seconds_text(a.level_times_s[i]) << YAML::EndMap;
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndMap << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string timings_json(const pipeline::RunResult& r) {
  nlohmann::ordered_json j;
  j["total_wall_time_s"] = rounded_seconds(r.wall_time_s);
  nlohmann::ordered_json groups = nlohmann::ordered_json::object();
  for (const auto& g : r.groups) {
    const auto& a = g.allocation;
    nlohmann::ordered_json gj;
    gj["wall_time_s"] = rounded_seconds(g.wall_time_s);
    gj["cost_table_time_s"] = rounded_seconds(g.cost_time_s);
    gj["solve_time_s"] = rounded_seconds(a.solve_time_s);
    gj["objectives"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < a.level_times_s.size(); ++i)
      gj["objectives"].push_back({{"level", level_name(a, i)}, {"solve_time_s", rounded_seconds(a.level_times_s[i])}});
    groups["group_" + std::to_string(g.index)] = gj;
  }
  j["groups"] = groups;
  return j.dump(2) + "\n";
}

}  // namespace stream::report
