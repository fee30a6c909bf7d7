#include "errors.hpp"

#include <stream/diagnostics/diagnostics.hpp>
#include <stream/error.hpp>

namespace stream::python {

namespace py = pybind11;

namespace {

// Owned by the module (m.attr below); borrowed here for the translator.
PyObject* stream_error = nullptr;
PyObject* input_error = nullptr;
PyObject* internal_error = nullptr;
PyObject* estimate_warning = nullptr;

PyObject* new_type(py::module_& m, const char* name, const char* doc, py::tuple bases) {
  const std::string qualified = std::string(PYBIND11_TOSTRING(PYBIND11_MODULE_NAME)) + "." + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.attr(name) = py::reinterpret_steal<py::object>(type);
  return type;
}

// The place an error reports: its own, or when it lists several problems (a ValidationError,
// whose own place is the file alone), the first problem's that has a line, so that `line` and
// `column` point somewhere (they were 0). Every problem is in `problems`.
Location place_of(const Error& e) {
  const auto* several = dynamic_cast<const ValidationError*>(&e);
  if (several == nullptr || e.where().line > 0) return e.where();
  for (const auto& d : several->diagnostics())
    if (d.where.line > 0) {
      Location where = d.where;
      if (where.file.empty()) where.file = e.where().file;
      return where;
    }
  return e.where();
}

py::list problems_of(const Error& e) {
  py::list out;
  if (const auto* several = dynamic_cast<const ValidationError*>(&e))
    for (const auto& d : several->diagnostics()) {
      py::dict p;
      p["file"] = d.where.file;
      p["line"] = d.where.line;
      p["column"] = d.where.column;
      p["message"] = d.message;
      out.append(p);
    }
  return out;
}

void raise(const Error& e) {
  PyObject* type = e.kind() == ErrorKind::BadInput ? input_error : internal_error;
  const Location where = place_of(e);
  py::object exc = py::reinterpret_borrow<py::object>(type)(py::str(e.what()));
  exc.attr("message") = e.message();
  exc.attr("file") = where.file;
  exc.attr("line") = where.line;
  exc.attr("column") = where.column;
  exc.attr("node") = where.node;
  exc.attr("operand") = where.operand;
  exc.attr("problems") = problems_of(e);
  PyErr_SetObject(type, exc.ptr());
}

}  // namespace

void register_errors(py::module_& m) {
  stream_error = new_type(m, "StreamError", "An error of Stream, with its message and place.",
                          py::make_tuple(py::handle(PyExc_Exception)));
  input_error = new_type(m, "StreamInputError", "Bad input: a file, value or workload Stream cannot take.",
                         py::make_tuple(py::handle(stream_error), py::handle(PyExc_ValueError)));
  internal_error = new_type(m, "StreamInternalError", "An internal failure of Stream (not the input's fault).",
                            py::make_tuple(py::handle(stream_error), py::handle(PyExc_RuntimeError)));
  estimate_warning = new_type(m, "EstimateWarning",
                              "Some (node, core) costs of a run are ideal-cycle estimates, not per-core model figures.",
                              py::make_tuple(py::handle(PyExc_UserWarning)));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      raise(e);
    }
  });
}

void warn_estimates(const std::string& message) {
  // Stack level 1: the warning points at the caller of evaluate_mapping (a builtin has no frame).
  if (PyErr_WarnEx(estimate_warning, message.c_str(), 1) != 0) throw py::error_already_set();
}

}  // namespace stream::python
