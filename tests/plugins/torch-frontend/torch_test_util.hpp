// Shared helpers of the torch frontend tests: load a program built in memory, find nodes.
#pragma once

#include <atomic>
#include <functional>
#include <filesystem>
#include <string>

#include <stream/error.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/ir/workload.hpp>
#include <stream/registry/registries.hpp>

#include "pt2_writer.hpp"
#include "scratch_dir.hpp"
#include "stream_torch/torch_frontend.hpp"

namespace torch_test {

inline std::filesystem::path temp_dir() {
  static const stream::test::ScratchDir dir("stream_torch_test_");
  return dir.path();
}

inline std::filesystem::path temp_file(const std::string& stem) {
  static std::atomic<int> counter{0};
  return temp_dir() / (stem + "_" + std::to_string(counter++) + ".pt2");
}

inline stream::Workload load_program(const stream::torch_testing::json& program, const stream::FrontendOptions& options = {},
                                     const stream::Registries& registries = stream::Registries()) {
  return stream::torch_frontend::TorchExportFrontend().load_json(program.dump(), "program.json", options, registries);
}

inline stream::Workload load_file(const std::filesystem::path& path, const stream::FrontendOptions& options = {}) {
  stream::Registries registries;
  return stream::torch_frontend::TorchExportFrontend().load(path, options, registries);
}

inline std::vector<std::string> computation_types(const stream::Workload& w) {
  std::vector<std::string> out;
  for (auto i : w.computation_nodes()) out.push_back(w.node(i).type);
  return out;
}

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const stream::Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace torch_test
