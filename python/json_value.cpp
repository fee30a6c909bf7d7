#include "json_value.hpp"

#include <string>

namespace stream::python {

namespace py = pybind11;

namespace {

template <class Json>
py::object convert(const Json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [key, value] : j.items()) d[py::str(key)] = convert(value);
      return d;
    }
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& value : j) l.append(convert(value));
      return l;
    }
    case nlohmann::json::value_t::string:
      return py::str(j.template get_ref<const std::string&>());
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.template get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.template get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.template get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.template get<double>());
    default:
      return py::none();
  }
}

}  // namespace

py::object to_python(const nlohmann::json& j) { return convert(j); }
py::object to_python(const nlohmann::ordered_json& j) { return convert(j); }

nlohmann::ordered_json to_json(py::handle value) {
  if (value.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) return value.cast<std::int64_t>();
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) throw py::type_error("dict keys must be strings, got " + py::repr(key).cast<std::string>());
      out[key.cast<std::string>()] = to_json(item);
    }
    return out;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& item : value) out.push_back(to_json(item));
    return out;
  }
  throw py::type_error("cannot express " + py::repr(value).cast<std::string>() + " in JSON");
}

}  // namespace stream::python
