// The two runs the report tests look at: the bundled default (one group, 2 convolutions on the
// TPU-like quad core) and a multi-group run (the int8 ResNet-18, ten groups, with links and
// memory on every core), each written once per test into a fresh scratch folder.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "stream_cli.hpp"

namespace stream::test {

inline const std::string kMultiGroupWorkload = std::string(STREAM_INPUTS_DIR) + "/workload/resnet18_int8.onnx";

/// Runs `stream run ARGS` into <scratch>/exp and returns that directory (fails the test when the
/// run fails).
inline std::filesystem::path report_run(const std::string& name, const std::string& args) {
  const auto dir = fresh_scratch_dir("report", name);
  const auto r = run_stream("run " + args + " --out '" + dir.string() + "' --experiment-id exp");
  EXPECT_EQ(r.code, 0) << r.out;
  return dir / "exp";
}

inline std::filesystem::path default_run(const std::string& name) { return report_run(name, ""); }
inline std::filesystem::path multi_group_run(const std::string& name) {
  return report_run(name, "--workload '" + kMultiGroupWorkload + "'");
}

/// group_0, group_1, ... of a result directory, as many as exist.
inline int group_count(const std::filesystem::path& run) {
  int n = 0;
  while (std::filesystem::exists(run / ("group_" + std::to_string(n)))) ++n;
  return n;
}

}  // namespace stream::test
