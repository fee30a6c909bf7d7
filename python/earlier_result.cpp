#include "earlier_result.hpp"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <stream/error.hpp>

#include "json_value.hpp"

namespace stream::python {

namespace fs = std::filesystem;
using ordered_json = nlohmann::ordered_json;

namespace {

// A scalar of core_cost_lut.yaml as the cost table holds it: a number when it reads as one.
ordered_json scalar(const YAML::Node& n) {
  const std::string& s = n.Scalar();
  try {
    std::size_t used = 0;
    const double x = std::stod(s, &used);
    if (used == s.size()) return x;
  } catch (const std::exception&) {
  }
  return s;
}

// The cost table of one group (run_result.cpp's rows) from its core_cost_lut.yaml; empty when the
// run wrote none (--summary-only).
ordered_json cost_table(const fs::path& lut) {
  ordered_json table = ordered_json::array();
  if (!fs::is_regular_file(lut)) return table;
  YAML::Node root;
  try {
    root = YAML::LoadFile(lut.string());
  } catch (const YAML::Exception& e) {
    throw Error("cannot read the earlier run's cost table (" + e.msg + "); rerun without skip_if_exists",
                Location{.file = lut.string()});
  }
  for (const auto& node : root["nodes"])
    for (const auto& c : node["cores"]) {
      ordered_json row{{"node", node["name"].Scalar()}};
      row["core_id"] = c["core_id"] ? c["core_id"].as<int>() : -1;
      row["core_type"] = c["core_type"] ? c["core_type"].Scalar() : "";
      for (const char* key : {"latency_total", "energy_total", "ideal_cycle", "ideal_temporal_cycle"})
        if (c[key]) row[key] = scalar(c[key]);
      row["mac_spatial_utilization"] = nullptr;  // not in the file
      const auto meta = c["metadata"];
      for (const char* key : {"backend", "reason", "detail"})
        if (meta && meta[key]) row[key] = meta[key].Scalar();
      table.push_back(row);
    }
  return table;
}

// An optimizer's run (summary.json has its block): what Result.optimizer adds to the block
// (host/optimize_outcome.hpp), the automatic mapping's figures read back from optimize.yaml.
ordered_json optimizer_additions(const fs::path& dir) {
  const fs::path file = dir / "optimize.yaml";
  ordered_json added{{"automatic_latency", nullptr}, {"automatic_energy_pj", nullptr}};
  try {
    const auto automatic = YAML::LoadFile(file.string())["automatic"];
    if (automatic && automatic["feasible"].as<bool>()) {
      added["automatic_latency"] = automatic["latency"].as<std::int64_t>();
      added["automatic_energy_pj"] = automatic["energy"].as<double>();
    }
  } catch (const YAML::Exception& e) {
    throw Error("cannot read the earlier run's optimize.yaml (" + e.msg + "); rerun without skip_if_exists",
                Location{.file = file.string()});
  }
  added["best_mapping"] = (dir / "best_mapping.yaml").string();
  added["optimize_file"] = file.string();
  return added;
}

// Solved as RunResult::solved() says: every group has an allocation (optimal, or time-limited with
// one, which has a latency).
bool all_solved(const ordered_json& groups) {
  for (const auto& g : groups) {
    const auto status = g.value("status", std::string());
    if (status != "OPTIMAL" && !(status == "TIME_LIMIT" && g.value("latency", 0.0) > 0)) return false;
  }
  return !groups.empty();
}

}  // namespace

std::optional<RunFigures> earlier_result(const fs::path& dir) {
  const fs::path file = dir / "summary.json";
  if (!fs::is_regular_file(file)) return std::nullopt;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  auto summary = ordered_json::parse(text.str(), nullptr, false);
  if (summary.is_discarded() || !summary.is_object())
    throw Error("the earlier run's summary does not parse; rerun without skip_if_exists", Location{.file = file.string()});
  summary.erase("timings");
  ordered_json groups = ordered_json::array();
  const ordered_json by_key = summary.contains("groups") && summary["groups"].is_object() ? summary["groups"] : ordered_json::object();
  for (const auto& [key, fields] : by_key.items()) {
    const int index = std::stoi(key.substr(key.find('_') + 1));
    ordered_json entry{{"index", index}};
    entry.update(fields);
    entry["cost_table"] = cost_table(dir / key / "core_cost_lut.yaml");
    groups.push_back(entry);
  }
  summary["solved"] = all_solved(groups);
  summary["groups"] = groups;
  summary["output_dir"] = dir.string();
  if (summary.contains("optimizer") && summary["optimizer"].is_object()) summary["optimizer"].update(optimizer_additions(dir));
  return RunFigures{to_python(summary).cast<pybind11::dict>()};
}

}  // namespace stream::python
