// `stream_cpp`: Stream from Python, on the host's own code paths. evaluate_mapping() is
// `stream run` (host/run_experiment.hpp), sweep() is `stream sweep` (host/sweep_runner.hpp),
// validate() is `stream validate --format json` (host/validation.hpp), parse_workload() is
// `stream parse --format json` and blocks() `stream blocks list --format json`; plugins are found
// and loaded as the CLI finds them, from the prefix the module is in. The GIL is released while a
// call works, and the plugin host is used under the session's lock only (session.hpp).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/version.hpp>

#include "arguments.hpp"
#include "block_catalog.hpp"
#include "errors.hpp"
#include "json_value.hpp"
#include "inputs.hpp"
#include "plugin_host.hpp"
#include "run_result.hpp"
#include "session.hpp"
#include "sweep_runner.hpp"
#include "validation.hpp"
#include "workload_json.hpp"

namespace stream::python {

namespace py = pybind11;
namespace fs = std::filesystem;

namespace {

py::object parse_workload(const std::string& path_or_block, bool decompose, const std::optional<std::string>& cast,
                          const StringMap& dims, const StringMap& inputs, const py::kwargs& params) {
  auto& s = session();
  const StringMap block_params = stringified(params);
  nlohmann::json j;
  {
    py::gil_scoped_release release;
    auto source = workload_source(path_or_block, block_params, s);
    if (source.block.empty()) source.file = host::resolve_input(source.file).string();
    source.dims = key_values(dims);
    source.inputs = key_values(inputs);
    source.decompose = decompose;
    source.cast = cast.value_or("");
    const std::lock_guard lock(s.mutex);
    j = host::workload_json(host::load_workload(s.context, source).workload);
  }
  return to_python(j);
}

py::object load_accelerator(const std::string& path) {
  nlohmann::json j;
  {
    py::gil_scoped_release release;
    j = host::accelerator_json(hardware::load_accelerator(host::resolve_input(path)));
  }
  return to_python(j);
}

py::object validate(const std::string& hardware, const std::optional<std::string>& workload,
                    const std::optional<std::string>& mapping, const std::optional<std::string>& tiling) {
  auto& s = session();
  nlohmann::json j;
  {
    py::gil_scoped_release release;
    // Paths resolve inside validate_inputs (host/inputs.hpp): a missing file is one of the errors.
    host::ValidateRequest request{hardware, workload.value_or(""), mapping.value_or(""), tiling.value_or("")};
    const std::lock_guard lock(s.mutex);
    j = host::validation_json(host::validate_inputs(request, s.context), request);
  }
  return to_python(j);
}

py::object blocks() {
  auto& s = session();
  nlohmann::ordered_json j;
  {
    py::gil_scoped_release release;
    const std::lock_guard lock(s.mutex);
    j = host::blocks_json(s.context.plugins().registries());
  }
  return to_python(j);
}

}  // namespace

void register_runs(py::module_& m);

}  // namespace stream::python

PYBIND11_MODULE(stream_cpp, m) {
  using namespace stream::python;
  namespace py = pybind11;
  m.doc() = "Stream (C++): maps neural-network workloads onto multi-core accelerators and predicts latency and energy.";
  m.attr("__version__") = stream::version_string;
  locate_host_prefix();
  // Warnings go to stderr, as from the CLI (stdout belongs to the Python program).
  if (!spdlog::get("stream")) spdlog::set_default_logger(spdlog::stderr_color_mt("stream"));
  spdlog::set_pattern("%^%l%$: %v");
  register_errors(m);
  register_run_result(m);
  register_runs(m);
  m.def("parse_workload", &parse_workload, py::arg("path_or_block"), py::kw_only(), py::arg("decompose") = false,
        py::arg("cast") = py::none(), py::arg("dims") = StringMap{}, py::arg("inputs") = StringMap{},
        "The affine workload of a model file or a block (block parameters as keyword arguments), as `stream parse "
        "--format json` prints it; inputs={'sr': '16000'} gives scalar graph inputs a value (--input).");
  m.def("load_accelerator", &load_accelerator, py::arg("path"),
        "An accelerator description read and checked, as `stream validate --format json` reports it.");
  m.def("validate", &validate, py::arg("hardware"), py::arg("workload") = py::none(),
        py::arg("mapping") = py::none(), py::arg("tiling") = py::none(),
        "`stream validate --format json`: {valid, errors, warnings, accelerator, workload, mapping, automatic_mapping}.");
  m.def("blocks", &blocks, "The reference blocks: key, label, description, params (name, type, default).");
}
