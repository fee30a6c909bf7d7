#include "inline_inputs.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>
#include <stream/error.hpp>
#include <stream/report/result_directory.hpp>

#include "inputs.hpp"

namespace stream::python {

namespace py = pybind11;
namespace fs = std::filesystem;

namespace {

// A path-like argument's text, or none.
std::optional<std::string> path_text(const py::handle& value) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::hasattr(value, "__fspath__")) return value.attr("__fspath__")().cast<std::string>();
  return std::nullopt;
}

// A core reference of a dict: the file found as a person would look for it (the current directory,
// then the bundled hardware and its cores/), copied beside the dict's file under cores/ (a core
// reference is a relative path), and the reference to the copy; unchanged when it is nowhere, for
// the reader to report with the places it looked.
class CoreCopies {
 public:
  explicit CoreCopies(const fs::path& folder) : folder_(folder) {}
  std::string operator()(const std::string& reference) {
    std::vector<std::string> names{reference};
    if (fs::path(reference).extension().empty()) names.push_back(reference + ".yaml");
    const fs::path bundled = host::bundled_inputs_dir() / "hardware";
    std::error_code ec;
    for (const auto& n : names)
      for (const fs::path& candidate : {fs::path(n), bundled / n, bundled / "cores" / n})
        if (fs::is_regular_file(candidate, ec)) return copy(fs::absolute(candidate).lexically_normal());
    return reference;
  }

 private:
  // One copy per file, named by its order and its stem (letters, digits, '_' and '-' only).
  std::string copy(const fs::path& file) {
    if (auto it = copies_.find(file.string()); it != copies_.end()) return it->second;
    std::string stem;
    for (char c : file.stem().string()) stem += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
    const std::string reference = "cores/" + std::to_string(copies_.size()) + "_" + stem + ".yaml";
    fs::create_directories(folder_ / "cores");
    fs::copy_file(file, folder_ / reference, fs::copy_options::overwrite_existing);
    return copies_[file.string()] = reference;
  }
  fs::path folder_;
  std::map<std::string, std::string> copies_;
};

// A copy of the dict with its core references resolved (cores' string values, array's core and
// offchip); the caller's dict is left as it was.
py::dict with_core_paths(const py::dict& hardware, CoreCopies& resolved_core) {
  // dict.copy(): py::dict(d) would be `d` itself, and the caller's dict would change.
  py::dict copy = hardware.attr("copy")();
  if (copy.contains("cores") && py::isinstance<py::dict>(copy["cores"])) {
    py::dict cores = copy["cores"].attr("copy")();  // the caller's nested dict is not changed
    for (auto [id, core] : py::reinterpret_borrow<py::dict>(copy["cores"]))
      if (py::isinstance<py::str>(core)) cores[id] = resolved_core(core.cast<std::string>());
    copy["cores"] = cores;
  }
  if (copy.contains("array") && py::isinstance<py::dict>(copy["array"])) {
    py::dict array = copy["array"].attr("copy")();
    for (const char* key : {"core", "offchip"})
      if (array.contains(key) && py::isinstance<py::str>(array[key])) array[key] = resolved_core(array[key].cast<std::string>());
    copy["array"] = array;
  }
  return copy;
}

// A key a YAML reader takes as written (a core id 0 as the integer 0, as PyYAML loads it, and as
// json.load's "0"): letters, digits, '_', '.', '-'.
bool plain_key(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'; });
}

// Python values as flow YAML: numbers, true/false and null plain, strings double-quoted (so text
// stays text), dicts and lists as flow maps and lists. Not JSON: a core id key is an integer.
void write_yaml(const py::handle& v, std::string& out, bool as_key = false) {
  if (v.is_none()) {
    out += "null";
  } else if (py::isinstance<py::bool_>(v)) {
    out += v.cast<bool>() ? "true" : "false";
  } else if (py::isinstance<py::int_>(v)) {
    out += py::str(v).cast<std::string>();
  } else if (py::isinstance<py::float_>(v)) {
    const double x = v.cast<double>();
    out += std::isnan(x) ? ".nan" : std::isinf(x) ? (x > 0 ? ".inf" : "-.inf") : py::repr(v).cast<std::string>();
  } else if (py::isinstance<py::str>(v)) {
    const auto text = v.cast<std::string>();
    out += as_key && plain_key(text) ? text : nlohmann::json(text).dump();
  } else if (py::isinstance<py::dict>(v)) {
    out += "{";
    bool first = true;
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(v)) {
      out += first ? "" : ", ";
      first = false;
      write_yaml(key, out, true);
      out += ": ";
      write_yaml(value, out);
    }
    out += "}";
  } else if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    out += "[";
    bool first = true;
    for (auto item : v) {
      out += first ? "" : ", ";
      first = false;
      write_yaml(item, out);
    }
    out += "]";
  } else {
    throw py::type_error("hardware dict: a value must be a dict, list, str, number, bool or None, got " +
                         py::str(py::type::of(v)).cast<std::string>());
  }
}

void write_bytes(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw Error("cannot write the temporary copy of an input", Location{.file = file.string()}, ErrorKind::Internal);
}

}  // namespace

InlineInputs::~InlineInputs() {
  if (folder_.empty()) return;
  std::error_code ec;
  fs::remove_all(folder_, ec);
}

const fs::path& InlineInputs::folder() {
  if (folder_.empty()) {
    std::string pattern = (fs::temp_directory_path() / "stream_cpp-inputs-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw Error("cannot make a temporary folder for the inputs given as objects", {}, ErrorKind::Internal);
    folder_ = pattern;
  }
  return folder_;
}

std::string InlineInputs::hardware(const py::handle& value) {
  if (auto text = path_text(value)) return *text;
  if (!py::isinstance<py::dict>(value))
    throw py::type_error("hardware must be a path (str or os.PathLike) or a dict of the accelerator file's content, got " +
                         py::str(py::type::of(value)).cast<std::string>());
  CoreCopies cores(folder());
  const py::dict tree = with_core_paths(py::reinterpret_borrow<py::dict>(value), cores);
  const std::string name =
      tree.contains("name") && py::isinstance<py::str>(tree["name"]) ? tree["name"].cast<std::string>() : "hardware";
  std::string text;
  write_yaml(tree, text);
  const fs::path file = folder() / (report::as_path_component(name.substr(0, 100)) + ".yaml");
  write_bytes(file, text + "\n");
  return file.string();
}

std::string InlineInputs::workload(const py::handle& value) {
  if (auto text = path_text(value)) return *text;
  std::string name = "model";
  py::bytes bytes;
  if (py::isinstance<py::bytes>(value) || py::isinstance<py::bytearray>(value) || py::isinstance<py::memoryview>(value)) {
    bytes = py::bytes(py::module_::import("builtins").attr("bytes")(value));
  } else if (py::hasattr(value, "SerializeToString")) {
    bytes = value.attr("SerializeToString")();
    if (py::hasattr(value, "graph") && !value.attr("graph").attr("name").cast<std::string>().empty())
      name = value.attr("graph").attr("name").cast<std::string>();
  } else {
    throw py::type_error("workload must be a path or block key (str or os.PathLike), ONNX bytes or an onnx.ModelProto, got " +
                         py::str(py::type::of(value)).cast<std::string>());
  }
  const fs::path file = folder() / (report::as_path_component(name.substr(0, 100)) + ".onnx");
  write_bytes(file, bytes.cast<std::string>());
  return file.string();
}

}  // namespace stream::python
