#include "errors.hpp"

#include <stream/error.hpp>

namespace stream::python {

namespace py = pybind11;

namespace {

// Owned by the module (m.attr below); borrowed here for the translator.
PyObject* stream_error = nullptr;
PyObject* input_error = nullptr;
PyObject* internal_error = nullptr;

PyObject* new_type(py::module_& m, const char* name, const char* doc, py::tuple bases) {
  const std::string qualified = std::string(PYBIND11_TOSTRING(PYBIND11_MODULE_NAME)) + "." + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.attr(name) = py::reinterpret_steal<py::object>(type);
  return type;
}

void raise(const Error& e) {
  PyObject* type = e.kind() == ErrorKind::BadInput ? input_error : internal_error;
  const auto& where = e.where();
  py::object exc = py::reinterpret_borrow<py::object>(type)(py::str(e.what()));
  exc.attr("message") = e.message();
  exc.attr("file") = where.file;
  exc.attr("line") = where.line;
  exc.attr("column") = where.column;
  exc.attr("node") = where.node;
  exc.attr("operand") = where.operand;
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
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      raise(e);
    }
  });
}

}  // namespace stream::python
