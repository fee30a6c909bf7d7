#include "run_result.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>
#include <stream/pipeline/metrics.hpp>
#include <stream/report/summary.hpp>

#include "json_value.hpp"
#include "optimize_outcome.hpp"

namespace stream::python {

namespace py = pybind11;

namespace {

nlohmann::ordered_json cost_table_json(const pipeline::GroupResult& group) {
  nlohmann::ordered_json table = nlohmann::ordered_json::array();
  for (const auto& [node, entries] : group.costs)
    for (const auto& e : entries) {
      nlohmann::ordered_json row{{"node", node},
                         {"core_id", e.core_id},
                         {"core_type", e.core_type},
                         {"latency_total", e.latency_total},
                         {"energy_total", e.energy_total},
                         {"ideal_cycle", e.ideal_cycle},
                         {"ideal_temporal_cycle", e.ideal_temporal_cycle},
                         {"mac_spatial_utilization", e.mac_spatial_utilization},
                         {"backend", e.backend}};
      if (!e.reason.empty()) row["reason"] = e.reason;
      if (!e.detail.empty()) row["detail"] = e.detail;
      table.push_back(row);
    }
  return table;
}

// The summary's "groups" object (keys group_<i>) as a list in group order, each with its index
// and cost table.
nlohmann::ordered_json groups_json(const nlohmann::ordered_json& summary_groups, const pipeline::RunResult& result) {
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const auto& g : result.groups) {
    nlohmann::ordered_json entry{{"index", g.index}};
    const auto key = "group_" + std::to_string(g.index);
    if (summary_groups.contains(key)) entry.update(summary_groups.at(key));
    entry["cost_table"] = cost_table_json(g);
    groups.push_back(entry);
  }
  return groups;
}

template <class T>
T get(const RunFigures& r, const char* key) {
  return r.data[key].cast<T>();
}

std::string repr(const RunFigures& r) {
  char text[256];
  const auto dir = get<std::string>(r, "output_dir");
  std::snprintf(text, sizeof text, "<stream_cpp.Result total_latency=%lld cycles, total_energy=%.6g pJ, edp=%.6g, groups=%zu, ",
                static_cast<long long>(get<std::int64_t>(r, "total_latency")), get<double>(r, "total_energy"),
                get<double>(r, "edp"), py::len(r.data["groups"]));
  const auto estimates = r.data["costs"]["fallback"].cast<std::size_t>();
  const std::string marked = estimates == 0 ? "" : "estimates=" + std::to_string(estimates) + ", ";
  return text + marked + ("output_dir='" + dir + "'>");
}

}  // namespace

RunFigures run_figures(const host::RunOutcome& outcome) {
  // mapping="optimize?...": with summary.json's optimizer block (the figures are its best run's).
  auto summary = host::outcome_summary(outcome, outcome.out_dir);
  summary.erase("timings");
  summary["groups"] = groups_json(summary["groups"], outcome.result);
  summary["solved"] = outcome.result.solved();
  summary["output_dir"] = outcome.out_dir.string();
  return RunFigures{to_python(summary).cast<py::dict>()};
}

void register_run_result(py::module_& m) {
  py::class_<RunFigures>(m, "Result", "The figures of one run (evaluate_mapping); the files are in output_dir.")
      .def_property_readonly("total_latency", [](const RunFigures& r) { return get<std::int64_t>(r, "total_latency"); },
                             "cycles")
      .def_property_readonly("total_energy", [](const RunFigures& r) { return get<double>(r, "total_energy"); }, "pJ")
      .def_property_readonly("edp", [](const RunFigures& r) { return get<double>(r, "edp"); }, "pJ x cycles")
      .def_property_readonly("mac_spatial_utilization", [](const RunFigures& r) { return r.data["mac_spatial_utilization"]; })
      .def_property_readonly("end_to_end_mac_utilization",
                             [](const RunFigures& r) { return r.data["end_to_end_mac_utilization"]; })
      .def_property_readonly("estimates", [](const RunFigures& r) { return r.data["costs"]["fallback"]; },
                             "(node, core) costs that are ideal-cycle estimates, not per-core model figures")
      .def_property_readonly("scheduled_estimates",
                             [](const RunFigures& r) { return r.data["costs"]["scheduled_fallback"]; },
                             "of which the schedule uses")
      .def_property_readonly("estimate_latency_share", [](const RunFigures& r) { return r.data["costs"]["latency_share"]; },
                             "% of the total latency resting on estimates (docs/results.md)")
      .def_property_readonly("estimate_energy_share", [](const RunFigures& r) { return r.data["costs"]["energy_share"]; },
                             "% of the total energy resting on estimates (docs/results.md)")
      .def_property_readonly("estimate_reasons",
                             [](const RunFigures& r) -> py::object {
                               if (r.data.contains("estimate_reasons")) return r.data["estimate_reasons"];
                               return py::list();
                             },
                             "the distinct reasons of the estimates: reason (in words), detail (the model's), pairs")
      .def_property_readonly("memory", [](const RunFigures& r) { return r.data["memory"]; },
                             "per core: capacity_bits, peak_bits, peak_share (%), peak_group, peak_slot, reserved_bits, "
                             "and levels (per memory: capacity_bits, peak_bits, peak_share, node); docs/results.md")
      .def_property_readonly("peak_memory_share",
                             [](const RunFigures& r) -> py::object {
                               py::object best = py::none();
                               for (auto c : r.data["memory"])
                                 if (best.is_none() || c["peak_share"].cast<double>() > best.cast<double>()) best = c["peak_share"];
                               return best;
                             },
                             "the fullest core's peak occupancy, % of its capacity (None without one)")
      .def_property_readonly("solved", [](const RunFigures& r) { return get<bool>(r, "solved"); },
                             "every group's allocation optimal (or time-limited with a solution)")
      .def_property_readonly("groups", [](const RunFigures& r) { return r.data["groups"]; },
                             "per group: index, latency, percentage, energy, status, metrics, cost_table, ...")
      .def_property_readonly("cost_table",
                             [](const RunFigures& r) {
                               py::list rows;
                               for (auto g : r.data["groups"])
                                 for (auto row : g["cost_table"]) {
                                   py::dict d = py::dict(row.cast<py::dict>());
                                   d["group"] = g["index"];
                                   rows.append(d);
                                 }
                               return rows;
                             },
                             "every group's (node, core) cost entries, each with its group")
      .def_property_readonly("optimizer",
                             [](const RunFigures& r) -> py::object {
                               if (r.data.contains("optimizer")) return r.data["optimizer"];
                               return py::none();
                             },
                             "mapping='optimize?...': summary.json's optimizer block (objective, automatic and best "
                             "objective values, ratio, evaluations, spent, cut_short, still_improving, best_evaluation: "
                             "None when the automatic mapping stayed best, group_runs; docs/results.md) with "
                             "automatic_latency, automatic_energy_pj, best_mapping and optimize_file (paths); None for "
                             "any other mapping")
      .def_property_readonly("output_dir", [](const RunFigures& r) { return get<std::string>(r, "output_dir"); })
      .def("as_dict", [](const RunFigures& r) { return r.data.attr("copy")(); }, "the whole result as a dict")
      .def("__repr__", &repr)
      .def(py::pickle([](const RunFigures& r) { return r.data; },
                      [](py::dict state) { return RunFigures{std::move(state)}; }));
}

}  // namespace stream::python
