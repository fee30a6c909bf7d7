// A workload the schedule cannot take fails up front, with one error naming the file: `stream
// validate --workload` reports it (exit 2), and `stream run` stops before solving any group, so it
// writes no group results (exit 2).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "model_builder.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using namespace stream::onnx_testing;
using stream::test::run_stream;

namespace {

const std::string kTpu = std::string(STREAM_INPUTS_DIR) + "/hardware/tpu_like_quad_core.yaml";

}  // namespace

// A model that only flattens its input: the layout op folds into nothing (its only reader is the
// graph output), so there is no computation node and no fusion group to schedule.
TEST(UnsupportedStructure, LayoutOnlyModelFailsInValidateAndRunSolvesNothing) {
  ModelBuilder m("layout_only");
  m.input("x", F32, {1, 8, 4, 4}).output("y", F32);
  m.node("Flatten", {"x"}, {"y"}, "flatten").attr("axis", 1);
  const fs::path model = m.save_temp("unsupported_layout_only.onnx");

  const auto v = run_stream("validate --hardware " + kTpu + " --workload " + model.string());
  EXPECT_EQ(v.code, 2) << v.out;
  EXPECT_NE(v.out.find(model.string()), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("no computation node"), std::string::npos) << v.out;
  EXPECT_EQ(v.out.find("\nvalid"), std::string::npos) << v.out;

  const fs::path out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "unsupported_layout_only";
  fs::remove_all(out);
  const auto r = run_stream("run --hardware " + kTpu + " --workload " + model.string() + " --out " + out.string() +
                            " --experiment-id exp");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(model.string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no computation node"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("solving the allocation"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "exp")) << "no results may be written";
}

// Conv1 -> Reshape [1, 16, 8, 8] as [1, 16, 4, 16] -> Conv2: the reshape regroups rows across
// axes, so it stays a layout op (FusionEdge) between two automatic fusion groups. A mapping file
// makes the whole workload one fused group, which cannot hold a layout op.
TEST(UnsupportedStructure, LayoutOpInsideAMappingFilesSingleGroupFailsUpFront) {
  ModelBuilder m("regroup");
  m.input("x", F32, {1, 8, 8, 8}).output("y", F32);
  m.initializer("w1", F32, {16, 8, 3, 3}).initializer("w2", F32, {16, 16, 3, 3});
  m.int_initializer("shape", {1, 16, 4, 16});
  m.node("Conv", {"x", "w1"}, {"c1"}, "Conv1").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  m.node("Reshape", {"c1", "shape"}, {"r"}, "regroup");
  m.node("Conv", {"r", "w2"}, {"y"}, "Conv2").attr("kernel_shape", Shape{3, 3}).attr("pads", Shape{1, 1, 1, 1});
  const fs::path model = m.save_temp("unsupported_regroup.onnx");
  const fs::path mapping = model.parent_path() / "unsupported_regroup_mapping.yaml";
  {
    std::ofstream f(mapping);
    f << "layers:\n";
    for (const char* n : {"Conv1", "Conv2"}) f << "- name: " << n << "\n  core_allocation: [[0]]\n  inter_core_tiling: []\n";
    f << "fused_groups:\n- name: all\n  layers: [Conv1, Conv2]\n  intra_core_tiling: []\n";
  }

  // Without the mapping file: two automatic groups, valid.
  const auto automatic = run_stream("validate --hardware " + kTpu + " --workload " + model.string());
  EXPECT_EQ(automatic.code, 0) << automatic.out;
  EXPECT_NE(automatic.out.find("2 fusion groups"), std::string::npos) << automatic.out;

  const std::string with_mapping = " --hardware " + kTpu + " --workload " + model.string() + " --mapping " + mapping.string();
  const auto v = run_stream("validate" + with_mapping);
  EXPECT_EQ(v.code, 2) << v.out;
  EXPECT_NE(v.out.find(model.string()), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("node 'regroup'"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("whole workload is one fusion group"), std::string::npos) << v.out;

  const fs::path out = fs::path(STREAM_BUILD_DIR) / "test_scratch" / "unsupported_regroup";
  fs::remove_all(out);
  const auto r = run_stream("run" + with_mapping + " --out " + out.string() + " --experiment-id exp");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(model.string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("node 'regroup'"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("costing"), std::string::npos) << r.out;  // stopped before group 0's cost table
  EXPECT_FALSE(fs::exists(out / "exp")) << "no results may be written";
}
