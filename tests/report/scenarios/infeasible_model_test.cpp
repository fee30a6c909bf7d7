// An infeasible group's model: the allocation returns it as MPS text and report/ writes it as
// group_<i>/model.mps with the other result files (with --summary-only too), named in
// optimization_metrics.yaml and on stderr by where it is once the result is in place (not the
// staging directory it was written in, which is gone by then).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "model_builder.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;
using namespace stream::onnx_testing;

namespace {

// A 3x3 Conv over 8x8 padded by 2^40 rows on each side: its output needs far more memory than any
// core holds, which the allocation's capacity bound proves (tests/plugins/onnx-frontend's
// hostile sizes): one group, infeasible, with a model to write.
fs::path too_large_model(const fs::path& dir) {
  const std::int64_t p = std::int64_t{1} << 40;
  ModelBuilder m("g");
  m.input("x", F32, {1, 1, 8, 8}).initializer("w", F32, {1, 1, 3, 3}).output("y", F32);
  m.node("Conv", {"x", "w"}, {"y"}, "conv").attr("pads", std::vector<std::int64_t>{p, 0, p, 0});
  m.save(dir / "too_large.onnx");
  return dir / "too_large.onnx";
}

stream::test::CliResult run_into(const fs::path& dir, const std::string& extra) {
  return stream::test::run_stream("run --workload '" + too_large_model(dir).string() + "' --out '" + dir.string() +
                                  "' --experiment-id exp " + extra);
}

}  // namespace

TEST(InfeasibleModel, WrittenBesideTheGroupFilesAndNamedWhereItIs) {
  const auto dir = stream::test::fresh_scratch_dir("report", "infeasible_model");
  const auto r = run_into(dir, "");
  EXPECT_EQ(r.code, 1) << r.out;
  const auto model = dir / "exp" / "group_0" / "model.mps";
  const std::string mps = stream::test::read(model);
  EXPECT_EQ(mps.rfind("NAME tetra FREE\n", 0), 0u) << mps.substr(0, 200);
  EXPECT_NE(mps.find(" memory_capacity capacity_core_0\n"), std::string::npos);  // the row the bound proves violated
  const std::string metrics = stream::test::read(dir / "exp" / "group_0" / "optimization_metrics.yaml");
  EXPECT_NE(metrics.find("\nmodel_file: " + model.string() + "\n"), std::string::npos) << metrics;
  EXPECT_NE(r.out.find("[stream run] model written to " + model.string() + "\n"), std::string::npos) << r.out;
}

TEST(InfeasibleModel, ASummaryOnlyRunStillWritesIt) {
  const auto dir = stream::test::fresh_scratch_dir("report", "infeasible_model_summary_only");
  const auto r = run_into(dir, "--summary-only");
  EXPECT_EQ(r.code, 1) << r.out;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir / "exp" / "group_0")) files.push_back(e.path().filename().string());
  EXPECT_EQ(files, std::vector<std::string>{"model.mps"});
  EXPECT_EQ(stream::test::read(dir / "exp" / "group_0" / "model.mps").rfind("NAME tetra FREE\n", 0), 0u);
}
