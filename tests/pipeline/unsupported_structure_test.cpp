// A workload the schedule cannot take fails up front, with one error naming the file: `stream
// validate --workload` reports it (exit 2), and `stream run` stops before solving any group, so it
// writes no group results (exit 2).
#include <gtest/gtest.h>

#include <filesystem>
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
