// A NaN or an infinity never reaches a result file (issue 13). Every hardware figure is finite
// (the reader checks), but a DRAM read cost of 1e308 pJ times any access count overflows a double:
// `stream run` wrote `total_energy: .inf` (and `edp: .inf`) to summary.yaml with exit 0. It is now
// an error naming the group, node and core, and no summary is written.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "scratch_dir.hpp"
#include "stream_cli.hpp"

namespace fs = std::filesystem;

namespace {

// tpu_like_quad_core with the compute cores' DRAM read cost replaced by `r_cost`.
fs::path hardware_with_dram_read_cost(const std::string& r_cost) {
  const fs::path src = fs::path(STREAM_INPUTS_DIR) / "hardware";
  static const stream::test::ScratchDir scratch("stream_nonfinite_");
  const fs::path dir = scratch.path() / r_cost;
  fs::create_directories(dir / "cores");
  fs::copy_file(src / "tpu_like_quad_core.yaml", dir / "hw.yaml", fs::copy_options::overwrite_existing);
  for (const auto& e : fs::directory_iterator(src / "cores"))
    fs::copy_file(e.path(), dir / "cores" / e.path().filename(), fs::copy_options::overwrite_existing);
  std::string core = stream::test::read(dir / "cores" / "tpu_like.yaml");
  const std::string from = "r_cost: 416.16";
  const auto at = core.find(from);
  EXPECT_NE(at, std::string::npos) << "tpu_like.yaml changed: pick another memory";
  core.replace(at, from.size(), "r_cost: " + r_cost);
  std::ofstream(dir / "cores" / "tpu_like.yaml", std::ios::trunc) << core;
  return dir;
}

TEST(NonFiniteResults, AnEnergyThatOverflowsADoubleIsAnErrorNotInf) {
  const auto dir = hardware_with_dram_read_cost("1.0e308");
  const auto run = stream::test::run_stream("run --hardware '" + (dir / "hw.yaml").string() + "' --out '" +
                                            (dir / "out").string() + "' --experiment-id x");
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_NE(run.out.find("group 0, node 'Conv1' on core 0: the per-core energy is infinite"), std::string::npos)
      << run.out;
  EXPECT_FALSE(fs::exists(dir / "out" / "x" / "summary.yaml"));
}

TEST(NonFiniteResults, AHugeButFiniteCostStillRuns) {
  // 1e300 pJ per read stays finite (about 1e304 pJ in total): a figure, not an error.
  const auto dir = hardware_with_dram_read_cost("1.0e300");
  const auto run = stream::test::run_stream("run --hardware '" + (dir / "hw.yaml").string() + "' --out '" +
                                            (dir / "out").string() + "' --experiment-id x");
  EXPECT_EQ(run.code, 0) << run.out;
  const auto summary = stream::test::read(dir / "out" / "x" / "summary.yaml");
  EXPECT_EQ(summary.find(".inf"), std::string::npos) << summary;
  EXPECT_EQ(summary.find(".nan"), std::string::npos) << summary;
}

}  // namespace
