// Inputs given to evaluate_mapping as Python objects instead of paths, as the Python Stream takes
// them: a hardware description as a dict (the accelerator file's content), a workload as ONNX bytes
// or an onnx.ModelProto. Each is written to a private temporary folder for the run, which the
// object removes; the run then reads them as files, on the same code path as `stream run`.
#pragma once

#include <filesystem>
#include <string>

#include <pybind11/pybind11.h>

namespace stream::python {

class InlineInputs {
 public:
  InlineInputs() = default;
  ~InlineInputs();  ///< removes the temporary folder, if one was made
  InlineInputs(const InlineInputs&) = delete;
  InlineInputs& operator=(const InlineInputs&) = delete;

  /// A str or os.PathLike as its text; a dict written as `<its name>.yaml`, whose core references
  /// (cores' values, array's core and offchip) resolve against the current directory, then the
  /// bundled hardware folder and its cores/, each file copied beside it (a core reference is a
  /// relative path); a reference found nowhere is left for the reader to report. Raises TypeError
  /// for anything else.
  [[nodiscard]] std::string hardware(const pybind11::handle& value);
  /// A str or os.PathLike as its text (a file or a block key); bytes, bytearray or memoryview (an
  /// ONNX model's bytes), or an object with SerializeToString() (an onnx.ModelProto), written as
  /// `<graph name or "model">.onnx`. Raises TypeError for anything else.
  [[nodiscard]] std::string workload(const pybind11::handle& value);

 private:
  const std::filesystem::path& folder();
  std::filesystem::path folder_;
};

}  // namespace stream::python
