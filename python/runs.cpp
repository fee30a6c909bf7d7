// evaluate_mapping() and sweep(): the two calls that run the pipeline. Their arguments become the
// host's requests (host/run_experiment.hpp, host/sweep_runner.hpp) with the GIL held; the work is
// done with it released, the plugin host used under the session's lock only.
#include <algorithm>
#include <atomic>
#include <iostream>
#include <optional>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <stream/optimize/optimize_spec.hpp>
#include <stream/report/cost_fallbacks.hpp>

#include "arguments.hpp"
#include "earlier_result.hpp"
#include "errors.hpp"
#include "inline_inputs.hpp"
#include "inputs.hpp"
#include "interruptible.hpp"
#include "json_value.hpp"
#include "plugin_host.hpp"
#include "run_experiment.hpp"
#include "run_result.hpp"
#include "session.hpp"
#include "sweep_runner.hpp"

namespace stream::python {

namespace py = pybind11;
namespace fs = std::filesystem;

namespace {

struct RunArgs {
  host::RunRequest request;
  bool verbose = false;
};

// The request with its workload: a file, or a block with its parameters.
host::RunRequest with_workload(const RunArgs& args, const std::string& workload, const std::map<std::string, std::string>& params) {
  host::RunRequest request = args.request;
  const auto source = workload_source(workload, params, session());
  request.workload.file = source.file;
  request.workload.block = source.block;
  request.workload.params = source.params;
  return request;
}

// `cancel`: the mapping optimizer's stop flag (interruptible.hpp); no other run takes one.
host::RunOutcome run(const RunArgs& args, const host::RunRequest& request, const std::atomic<bool>* cancel = nullptr) {
  auto& s = session();
  const host::Progress say = [verbose = args.verbose](const std::string& line) {
    if (verbose) std::cerr << "[stream_cpp] " << line << "\n";
  };
  host::PreparedRun prepared = [&] {
    const std::lock_guard lock(s.mutex);
    return host::prepare_run(request, s.context, say);
  }();
  if (prepared.built.optimize) prepared.env.cancel = cancel;
  return host::execute_run(std::move(prepared));
}

RunFigures evaluate_mapping(const py::object& hardware, const py::object& workload, const std::string& output_path,
                            const std::optional<std::string>& mapping, const std::optional<std::string>& intra_core_tiling,
                            const std::optional<py::object>& fusion_cut_points,
                            const std::optional<std::string>& experiment_id, const py::dict& block_params,
                            const std::optional<std::string>& cast, bool decompose, bool no_decompose, int threads,
                            double time_limit, bool memory_fallback, bool summary_only, bool verbose,
                            const std::string& layout, bool strict, const py::dict& inputs, bool skip_if_exists,
                            const std::string& compat) {
  InlineInputs objects;  // a dict or a model given as an object, as files for the run's length
  RunArgs args;
  auto& r = args.request;
  r.hardware = objects.hardware(hardware);
  r.out = output_path;
  r.mapping = mapping.value_or("");
  r.intra_core_tiling = intra_core_tiling.value_or("");
  if (fusion_cut_points) {
    if (py::isinstance<py::str>(*fusion_cut_points)) {
      r.fusion_cut_points = fusion_cut_points->cast<std::string>();
    } else {
      for (const auto& name : *fusion_cut_points)
        r.fusion_cut_points += (r.fusion_cut_points.empty() ? "" : ",") + name.cast<std::string>();
    }
  }
  r.experiment_id = experiment_id;
  r.workload.cast = cast.value_or("");
  r.workload.inputs = key_values(stringified(inputs));
  r.workload.decompose = decompose;
  r.no_decompose = no_decompose;
  r.threads = threads;
  r.time_limit = time_limit;
  r.no_memory_fallback = !memory_fallback;
  r.summary_only = summary_only;
  r.layout = layout;  // checked by prepare_run: a bad mode raises
  r.strict = strict;
  r.compat = compat;  // checked by prepare_run: a bad mode raises
  args.verbose = verbose;
  const auto request = with_workload(args, objects.workload(workload), stringified(block_params));
  if (skip_if_exists)
    if (auto earlier = earlier_result(host::result_directory(request))) return std::move(*earlier);
  std::optional<host::RunOutcome> outcome;
  if (optimize::is_optimize_spec(request.mapping)) {  // Ctrl-C keeps the optimizer's best
    outcome = run_keeping_best_on_interrupt([&](const std::atomic<bool>* cancel) { return run(args, request, cancel); });
  } else {
    py::gil_scoped_release release;
    outcome = run(args, request);
  }
  auto figures = run_figures(*outcome);
  if (const auto note = report::fallback_note(outcome->fallbacks); !note.empty())
    warn_estimates(note + " (Result.estimate_reasons, " + report::estimate_reasons_file(!summary_only) + ")");
  return figures;
}

// A dict is the sweep file's content; its relative paths resolve against the current directory.
sweep::SweepFile sweep_spec(const py::object& spec) {
  if (py::isinstance<py::dict>(spec)) {
    const std::string text = to_json(spec).dump();
    return sweep::parse_sweep_file(text, fs::current_path() / "<sweep dict>");
  }
  return sweep::load_sweep_file(host::resolve_input(spec.cast<fs::path>()));
}

py::object sweep(const py::object& spec, const fs::path& out, int jobs, const std::optional<std::string>& shard,
                 bool keep_points, bool strict, bool restart) {
  auto& s = session();
  host::SweepRequest request{sweep_spec(spec), out, jobs, shard.value_or(""), keep_points, &s.mutex, true, strict, restart};
  host::SweepOutcome outcome;
  {
    py::gil_scoped_release release;
    outcome = host::run_sweep(request, s.context);
  }
  const auto estimated = std::count_if(outcome.rows.begin(), outcome.rows.end(), [](const host::Row& r) {
    return r.contains("estimates") && r["estimates"].is_number() && r["estimates"].get<double>() > 0;
  });
  if (estimated > 0)
    warn_estimates(std::to_string(estimated) + " of " + std::to_string(outcome.rows.size()) +
                   " points rest partly on ideal-cycle estimates (their rows' estimates, estimate_latency_share and "
                   "estimate_energy_share columns)");
  py::dict d;
  d["rows"] = to_python(nlohmann::ordered_json(outcome.rows));
  d["pareto"] = to_python(nlohmann::ordered_json(outcome.pareto));
  d["ok"] = outcome.ok;
  d["out"] = out.string();
  return d;
}

}  // namespace

void register_runs(py::module_& m) {
  m.def("evaluate_mapping", &evaluate_mapping, py::arg("hardware") = "hardware/tpu_like_quad_core.yaml",
        py::arg("workload") = "workload/2conv_1_8_32_32_16_32_3.onnx", py::arg("output_path") = "outputs",
        py::arg("mapping") = py::none(), py::arg("intra_core_tiling") = py::none(),
        py::arg("fusion_cut_points") = py::none(), py::arg("experiment_id") = py::none(), py::kw_only(),
        py::arg("block_params") = py::dict(), py::arg("cast") = py::none(), py::arg("decompose") = false,
        py::arg("no_decompose") = false, py::arg("threads") = 1, py::arg("time_limit") = 0.0,
        py::arg("memory_fallback") = true, py::arg("summary_only") = false, py::arg("verbose") = false,
        py::arg("layout") = "fixed", py::arg("strict") = false, py::arg("inputs") = py::dict(),
        py::arg("skip_if_exists") = false,
        py::arg("compat") = "none",
        "`stream run`: maps the workload (a model file, or a block key with block_params) onto the hardware and "
        "writes the result files to output_path/experiment_id; returns the figures (Result). Warns with "
        "EstimateWarning when ideal-cycle estimates stood in; strict=True raises StreamInputError instead when one "
        "stands in for a Conv/Gemm/MatMul-like node. inputs={'sr': 16000} gives scalar graph inputs a value "
        "(--input). hardware may be a dict (the accelerator file's content) and workload ONNX bytes or an "
        "onnx.ModelProto, as the Python Stream takes them. skip_if_exists=True returns the Result of the results already "
        "in output_path/experiment_id (its summary.json and cost tables) instead of running again. "
        "compat='stream-1.13' follows the reference's automatic path (--compat). "
        "mapping='optimize?objective=latency|energy|edp|pareto&evaluations=N&seed=K&jobs=J' runs the mapping optimizer "
        "(docs/optimize.md): the Result is its best mapping's, Result.optimizer what it did; Ctrl-C stops its search "
        "and returns the best found (cut_short, with a RuntimeWarning); a bad option raises StreamInputError naming it.");
  m.def("sweep", &sweep, py::arg("spec"), py::arg("out"), py::kw_only(), py::arg("jobs") = 0,
        py::arg("shard") = py::none(), py::arg("keep_points") = false, py::arg("strict") = false,
        py::arg("restart") = false,
        "`stream sweep`: every design point of a sweep file (a path, or its content as a dict); writes results.csv, "
        "results.jsonl, pareto.csv and report.html to out (with keep_points, each point's full results to "
        "out/points/<id>/) and returns {rows, pareto, ok, out}. Rows carry estimates, estimate_latency_share and "
        "estimate_energy_share; with strict=True a point resting on an estimate for a Conv/Gemm/MatMul-like node fails "
        "with the reason (status failed). Run again into the same out, it resumes (the points done are skipped); "
        "restart=True starts over.");
}

}  // namespace stream::python
